"""Run ``python -m forage`` as the ``forage`` command."""

from forage.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
