"""Shared by every test: this folder's helpers (``helpers``, ``reference``) import by name."""
