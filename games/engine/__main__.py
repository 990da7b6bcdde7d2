"""Command line: `python -m games.engine replay FILE|-` (TRANSCRIPT.md)."""

from __future__ import annotations

import json
import sys

from .transcript import TranscriptError, replay

USAGE = "usage: python -m games.engine replay FILE|-"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "replay":
        print(USAGE, file=sys.stderr)
        return 2
    path = args[1]
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"invalid transcript: top level: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        doc = json.loads(text)
    except ValueError as exc:
        print(f"invalid transcript: top level: not valid JSON ({exc})", file=sys.stderr)
        return 2
    try:
        result = replay(doc)
    except TranscriptError as exc:
        print(f"invalid transcript: {exc.where}: {exc.problem}", file=sys.stderr)
        return 2
    try:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of the transcript.
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
