"""``python -m ingest push URL FILE [FILE ...] --token TOKEN [--system NAME] [--team TEAM] [--config KEY=VALUE ...]``

Sends result files to an ArrayBench portal's API and follows them until they are read: one line
per file (the runs stored, or the error), exit status 1 if any file failed. Standard library only,
so a lab machine with nothing but this repository and Python can run it at the end of a benchmark.
"""

import argparse
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import BinaryIO

API = "/api/v1/"
FINISHED = {"done", "failed", "duplicate"}
POLL_SECONDS = 1.0
BLOCK_BYTES = 1 << 20


RETRIES = 4
RETRIED_STATUSES = {500, 502, 503, 504}


class PushError(Exception):
    """A request the portal refused or could not be sent; the message is for the user. ``status`` is the
    HTTP status (None when the portal could not be reached), ``answer`` the error answer's JSON."""

    def __init__(self, message: str, *, status: int | None = None, answer: dict | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.answer = answer or {}


def main(argv: list[str] | None = None) -> int:
    args = _arguments().parse_args(argv)
    if not args.token:
        print(
            "push: give --token (or set ARRAYBENCH_TOKEN); create one on the portal's API tokens page", file=sys.stderr
        )
        return 2
    try:
        client = Client(args.url, token=args.token, timeout_s=args.timeout)
        received = client.upload(
            files=files_under(args.files), fields=label_fields(args.system, args.config, team=args.team)
        )
        uploads = client.follow([row["id"] for row in received["uploads"]], wait_s=args.wait)
        earlier_ids = [row["duplicate_of"] for row in uploads if row["status"] == "duplicate" and row["duplicate_of"]]
        earlier = {row["id"]: row for row in client.follow(earlier_ids, wait_s=args.wait)} if earlier_ids else {}
        for row in uploads:
            if row["duplicate_of"] in earlier:
                row["duplicate_of_status"] = earlier[row["duplicate_of"]]["status"]
    except PushError as error:
        print(f"push: {error}", file=sys.stderr)
        return 1
    lines = [_line(upload, client) for upload in uploads] + [
        f"refused    {r['name']}: {r['error']}" for r in received["refused"]
    ]
    print("\n".join(lines))
    ok = all(upload["status"] in ("done", "duplicate") for upload in uploads) and not received["refused"]
    return 0 if ok else 1


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ingest push", description=__doc__.splitlines()[2])
    parser.add_argument("url", help="the portal, e.g. https://bench.example.com")
    parser.add_argument("files", nargs="+", help="result files, folders (walked) or .zip archives, sent together")
    parser.add_argument("--token", default=os.environ.get("ARRAYBENCH_TOKEN"), help="an API token ($ARRAYBENCH_TOKEN)")
    parser.add_argument("--system", help='the system measured, e.g. "IBM DS4500" (created when new)')
    parser.add_argument("--team", help="the team the results belong to (needed when the token's user is in several)")
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a label: raid_level=RAID-5, drive_count=140, ...",
    )
    parser.add_argument("--wait", type=float, default=600, help="seconds to follow the files before giving up (600)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one request may take (300)")
    return parser


def files_under(paths: list[str]) -> list[Path]:
    """Files as given, folders walked in name order (hidden files passed over), as ``python -m ingest`` reads them."""
    found = []
    for path in map(Path, paths):
        if not path.exists():
            raise PushError(f"{path}: no such file or folder")
        found += (
            sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            if path.is_dir()
            else [path]
        )
    if not found:
        raise PushError("no files to send")
    return found


def label_fields(system: str | None, config: list[str], *, team: str | None = None) -> list[tuple[str, str]]:
    """The form fields of the upload: the team, the system (used if it exists, else created) and the labels."""
    fields = [("team", team.strip())] if team and team.strip() else []
    if system and system.strip():
        vendor, _, model = system.strip().partition(" ")
        fields += [
            ("new_system_name", system.strip()),
            ("new_system_vendor", vendor),
            ("new_system_model", model or vendor),
        ]
    for pair in config:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise PushError(f"--config {pair!r}: expected KEY=VALUE")
        fields.append((name.strip(), value.strip()))
    return fields


class Client:
    """The few API calls the push command makes, with a bearer token."""

    def __init__(self, url: str, *, token: str, timeout_s: float) -> None:
        self.base = url.rstrip("/").removesuffix(API.rstrip("/")) + "/"
        self.token = token
        self.timeout_s = timeout_s

    def upload(self, *, files: list[Path], fields: list[tuple[str, str]]) -> dict:
        boundary = f"arraybench-{uuid.uuid4().hex}"
        with tempfile.TemporaryFile() as body:
            length = _multipart(body, boundary, fields, files)
            body.seek(0)
            headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(length)}
            for attempt in range(RETRIES + 1):
                body.seek(0)
                try:
                    return self._request("POST", f"{API}uploads/", body=body, headers=headers)
                except PushError as error:
                    if "uploads" in error.answer:  # kept, read later (the job queue was down): follow them
                        return {"uploads": error.answer["uploads"], "refused": error.answer.get("refused", [])}
                    if attempt == RETRIES or (error.status is not None and error.status not in RETRIED_STATUSES):
                        raise
                    # Sent again: files stored before the answer was lost come back as duplicates naming them.
                    time.sleep(error.answer.get("retry_after_s") or 2**attempt)
            raise AssertionError("unreachable")

    def follow(self, upload_ids: list[int], *, wait_s: float) -> list[dict]:
        """The uploads once every one is finished (or as they are when ``wait_s`` runs out), in the given order."""
        deadline = time.monotonic() + wait_s
        query = urllib.parse.urlencode({"ids": ",".join(map(str, upload_ids)), "page_size": len(upload_ids)})
        while True:
            rows = {row["id"]: row for row in self._request("GET", f"{API}uploads/?{query}")["results"]}
            uploads = [rows[upload_id] for upload_id in upload_ids if upload_id in rows]
            if all(row["status"] in FINISHED for row in uploads) or time.monotonic() > deadline:
                return uploads
            time.sleep(POLL_SECONDS)

    def absolute(self, path: str) -> str:
        return urllib.parse.urljoin(self.base, path)

    def _request(
        self, method: str, path: str, *, body: bytes | BinaryIO | None = None, headers: dict | None = None
    ) -> dict:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json", **(headers or {})}
        request = urllib.request.Request(self.absolute(path), data=body, method=method, headers=headers)
        while True:
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    return json.load(response)
            except urllib.error.HTTPError as error:
                if error.code == 429 and method == "GET":  # polling too fast for the rate limit: wait as told
                    time.sleep(float(error.headers.get("Retry-After") or 5))
                    continue
                answer = _error_answer(error)
                message = answer.get("error", {}).get("message") if isinstance(answer.get("error"), dict) else None
                raise PushError(
                    f"{method} {request.full_url}: {error.code} {message or error.reason}",
                    status=error.code,
                    answer={**answer, "retry_after_s": _seconds(error.headers.get("Retry-After"))},
                ) from None
            except (urllib.error.URLError, OSError) as error:
                reason = getattr(error, "reason", error)
                raise PushError(f"cannot reach {self.base}: {reason}") from None


def _error_answer(error: urllib.error.HTTPError) -> dict:
    """The portal's error answer ({"error": {"message": ...}, ...}), or {} when it sent none (an HTML page)."""
    try:
        answer = json.loads(error.read())
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _seconds(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def _multipart(out: BinaryIO, boundary: str, fields: list[tuple[str, str]], files: list[Path]) -> int:
    """Write a multipart/form-data body (RFC 7578) to ``out``, copying files in blocks; return its length."""

    def header(disposition: str, content_type: str = "") -> bytes:
        lines = [f"--{boundary}", f"Content-Disposition: form-data; {disposition}"]
        lines += [f"Content-Type: {content_type}"] if content_type else []
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    for name, value in fields:
        out.write(header(f'name="{_quoted(name)}"') + value.encode() + b"\r\n")
    for path in files:
        out.write(header(f'name="files"; filename="{_quoted(path.name)}"', "application/octet-stream"))
        with path.open("rb") as source:
            while block := source.read(BLOCK_BYTES):
                out.write(block)
        out.write(b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.tell()


def _quoted(text: str) -> str:
    # As browsers send names (WHATWG): quote, CR and LF percent-encoded.
    return text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _line(upload: dict, client: Client) -> str:
    name, status = upload["name"], upload["status"]
    if status == "done" and upload["read_with"]:
        return f"stored     {name}: read with upload #{upload['read_with']}"
    if status == "done":
        runs = len(upload["runs"])
        page = client.absolute(upload["page_url"])
        return f"stored     {name}: {upload['format']}, {runs} run{'' if runs == 1 else 's'} ({page})"
    if status == "duplicate":
        return (
            f"duplicate  {name}: already stored as upload #{upload['duplicate_of']} ({upload['duplicate_of_status']})"
        )
    if status == "failed":
        text = upload["error"]["text"]
        # A parser's message names the file already ("FILE:LINE: message").
        return f"failed     {text}" if text.startswith(name) else f"failed     {name}: {text}"
    return f"waiting    {name}: still {upload['status_text']} ({client.absolute(upload['page_url'])})"
