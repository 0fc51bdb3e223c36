"""``manage.py loaddemo``: the seed studies' published tables as runs (idempotent)."""

from typing import Any

import yaml
from django.conf import settings
from django.core.management import BaseCommand
from django.db import transaction

from ingest.result import MB, MIB
from portal.analysis.vocabulary import cache_flags, raid_level_canonical
from portal.models import Point, PublishedStrokeMultipliers, Run, System
from portal.results.figures import run_stored_figures, runs_curves_recompute
from portal.results.workloads import configs_for, run_signature, workloads_for
from portal.systems.services import systems_facets_recompute

FIXTURE = settings.BASE_DIR / "fixtures" / "demo.yaml"
SYSTEM_FIELDS = ("vendor", "model", "controllers", "cache_mb_per_controller", "firmware", "notes")


def config_labels(config: dict[str, Any]) -> dict[str, Any]:
    """A fixture configuration as stored: the cache setting a paper names becomes the read and write
    cache flags it means (matched as flags, never as words); words no setting is known by stay a note."""
    labels = dict(config)
    extra = dict(labels.get("extra") or {})
    named = extra.pop("cache_setting", None)
    flags = cache_flags(named)
    if flags is None and named:
        extra["cache_note"] = named
    for name, flag in zip(("read_cache", "write_cache"), flags or (None, None), strict=True):
        if labels.get(name) is None and flag is not None:
            labels[name] = flag
    labels["extra"] = extra
    return labels


class Command(BaseCommand):
    help = "Load the published figures of the seed studies (fixtures/demo.yaml) as published runs."

    def handle(self, *args: Any, **options: Any) -> None:
        demo = yaml.load(FIXTURE.read_text(), Loader=yaml.CSafeLoader)  # libyaml: 10x the pure-Python loader
        with transaction.atomic():
            systems = self._systems(demo["systems"])
            workloads = {w["name"]: w for w in demo["workloads"]}
            runs = demo["runs"] + demo.get("jetstress", []) + demo.get("orion", [])
            created = self._runs(runs, systems, workloads, demo.get("mbps_units", {}))
            tables = self._stroke_tables(demo.get("stroke_multipliers", []), systems)
        self.stdout.write(f"Demo data: {created} published runs added, {tables} stroke tables added")

    def _systems(self, rows):
        systems = {}
        for row in rows:
            defaults = {
                name: row.get(name) or ("" if name in ("firmware", "notes") else None) for name in SYSTEM_FIELDS
            }
            # The published studies are the operator's (no team) and readable by everyone.
            defaults |= {"published": True}
            system, _ = System.objects.update_or_create(name=row["name"], team=None, defaults=defaults)
            systems[row["name"]] = system
        return systems

    def _runs(self, rows, systems, workloads, mbps_units):
        existing = set(
            Run.objects.filter(origin=Run.Origin.PUBLISHED).values_list(
                "config_id", "workload_name", "citation_document", "citation_table", "citation_note"
            )
        )
        configs = configs_for(wanted=[(systems[row["system"]], config_labels(row["config"])) for row in rows])
        named = [(run_signature(workload=workloads.get(row["workload"], {})), row["workload"]) for row in rows]
        new_runs, new_points = [], []
        for row, config, workload in zip(rows, configs, workloads_for(wanted=named, titled=True), strict=True):
            citation = row["citation"]
            key = (config.id, row["workload"], citation["document"], citation["table"], citation.get("note", ""))
            if key in existing:
                continue
            existing.add(key)
            run = self._run(row, config, workloads.get(row["workload"], {}))
            run.workload = workload
            binary = mbps_units.get(citation["document"]) == "binary"
            points = [self._point(point, binary, run, seq) for seq, point in enumerate(row["points"])]
            for name, value in self._stored_figures(run, points).items():
                setattr(run, name, value)
            new_runs.append(run)
            new_points.extend(points)
        # Runs first: PostgreSQL returns their ids, which the points then pick up.
        Run.objects.bulk_create(new_runs)
        Point.objects.bulk_create(new_points)
        runs_curves_recompute(run_ids=[run.id for run in new_runs])
        systems_facets_recompute(system_ids=[system.id for system in systems.values()])
        return len(new_runs)

    def _run(self, row, config, workload):
        citation = row["citation"]
        return Run(
            config=config,
            name=f"{row['workload']} ({citation['table']})",
            tool=row["tool"]["name"] or "",
            tool_version=row["tool"].get("version") or "",
            workload_name=row["workload"],
            read_pct=workload.get("read_pct"),
            random_pct=workload.get("random_pct"),
            transfer_sizes=workload.get("transfer_sizes") or [],
            params={**(row.get("params") or {}), "threshold_rule": row.get("rule")},
            verdict=row.get("verdict") or "",
            measurement=row.get("measurement") or Run.Measurement.END_TO_END,
            origin=Run.Origin.PUBLISHED,
            citation_document=citation["document"],
            citation_table=citation["table"],
            citation_note=citation.get("note", ""),
            published_at_ms=row.get("threshold_ms"),
        )

    def _stored_figures(self, run, points):
        printed = [point.metrics.get("published_mbps_binary") for point in points]
        return run_stored_figures(
            points=points,
            params=run.params,
            origin=run.origin,
            published_at_ms=run.published_at_ms,
            printed_mbps_binary=printed,
        )

    def _point(self, point, binary, run, seq):
        figures = {name: point.get(name) for name in Point.FIGURES}
        metrics = dict(point.get("metrics") or {})
        if binary:
            for name in ("mbps", "read_mbps", "write_mbps"):
                if figures[name] is not None:
                    metrics[f"published_{name}_binary"] = figures[name]
                    figures[name] = figures[name] * MIB / MB
        load = point.get("load") or {}
        return Point(
            run=run,
            seq=seq,
            load=load,
            outstanding_io=load.get("outstanding_io"),
            threads=load.get("threads"),
            metrics=metrics,
            **figures,
        )

    def _stroke_tables(self, rows, systems):
        created = 0
        for row in rows:
            citation = row["citation"]
            _, was_created = PublishedStrokeMultipliers.objects.get_or_create(
                system=systems[row["system"]],
                raid_level=raid_level_canonical(row["raid_level"]),
                workload_name=row["workload"],
                defaults={
                    "baseline_stroke_pct": row.get("baseline_stroke_pct", 8),
                    "multipliers": {str(k): v for k, v in row["multipliers"].items()},
                    "citation_document": citation["document"],
                    "citation_table": citation["table"],
                    "citation_note": citation.get("note", ""),
                },
            )
            created += was_created
        return created
