"""The Fog of War companion: the JSON-state adapter (``rules``), views, forms and URLs."""
