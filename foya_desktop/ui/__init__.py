"""Qt widgets, models and the engine bridge. The only package (with app.py) that imports Qt."""
