import factory

from portal.models import Config, Point, Run, System
from portal.systems.services import systems_facets_recompute


class SystemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = System

    vendor = "IBM"
    model = factory.Sequence(lambda n: f"DS{4000 + n}")
    name = factory.LazyAttribute(lambda o: f"{o.vendor} {o.model}")
    controllers = 2
    # Readable by everyone, as the published studies are; a team's private system says published=False.
    published = True


class ConfigFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Config

    system = factory.SubFactory(SystemFactory)
    raid_level = "RAID-5"
    drive_count = 140
    drive_type = "HDD"


class RunFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Run

    config = factory.SubFactory(ConfigFactory)
    name = "OLTP 8K sweep"
    tool = "Iometer"
    workload_name = "OLTP 8K"
    read_pct = 67
    random_pct = 100
    transfer_sizes = factory.LazyFunction(lambda: [{"bytes": 8192, "pct": 100}])

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        # As storing results does: the system keeps its runs' tools and workload names.
        run = super()._create(model_class, *args, **kwargs)
        systems_facets_recompute(system_ids=[run.config.system_id])
        return run


class PointFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Point

    run = factory.SubFactory(RunFactory)
    seq = factory.Sequence(lambda n: n)
