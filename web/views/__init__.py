"""The web pages' views: thin. Find the object through what the caller may see, check what
they may do, call a service or a page read (``web.pages``), render."""
