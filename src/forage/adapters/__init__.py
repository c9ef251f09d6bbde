"""The few places forage leans on a library's private names, one module a library.

Each module reaches only for what the library's public API does not offer, checks at
import or first use that it is still there, and says clearly what changed if it is not;
``tests/test_adapters.py`` fails by name when a new release moves any of it.
"""
