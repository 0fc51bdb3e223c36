"""Where the shared sample files live: ``SAMPLES_DIR`` or ``../shared/samples`` beside the repo."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLES_DIR = Path(os.environ.get("SAMPLES_DIR", REPO.parent / "shared" / "samples"))
SEEDS_DIR = SAMPLES_DIR.parent / "seeds"
DATA_DIR = Path(__file__).resolve().parent / "ingest" / "data"


def sample(*parts):
    path = SAMPLES_DIR.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"shared sample {path} is missing; set SAMPLES_DIR to the samples folder")
    return path


def data(*parts):
    return DATA_DIR.joinpath(*parts)
