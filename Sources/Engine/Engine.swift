// Engine module: see DESIGN.md.
