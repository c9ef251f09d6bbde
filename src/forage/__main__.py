"""Run ``python -m forage`` as the ``forage`` command."""

from forage import main

raise SystemExit(main())
