"""``python -m ingest [--json] FILE [FILE ...]``: parse result files, print the normalised result.

``python -m ingest --schema`` prints the result contract as a JSON Schema instead.

Exit status 0 on success; 2 with ``FILE:LINE: message`` on stderr when a file cannot be read.
``python -m ingest push URL FILE ...`` sends files to a portal instead (see ``ingest/push.py``).
"""

import argparse
import json
import sys

from .errors import ParseError
from .registry import parse_paths
from .result import json_schema


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["push"]:
        from .push import main as push

        return push(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m ingest", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="result files, folders or .zip archives")
    parser.add_argument("--json", action="store_true", help="print the result sets as JSON")
    parser.add_argument("--schema", action="store_true", help="print the result contract as a JSON Schema")
    args = parser.parse_args(argv)
    if args.schema:
        json.dump(json_schema(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    if not args.files:
        parser.error("give result files, folders or .zip archives (or --schema)")
    try:
        results = parse_paths(args.files)
    except ParseError as error:
        print(error, file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(results[0] if len(results) == 1 else results, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for result in results:
            points = sum(len(run["points"]) for run in result["runs"])
            print(f"{result['source']['name']}: {result['format']}, {len(result['runs'])} runs, {points} points")
            for warning in result["warnings"]:
                print(f"  warning: {warning}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
