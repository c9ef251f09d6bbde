"""Run ``python -m forage`` as the ``forage`` command."""

from forage.cli import main

raise SystemExit(main())
