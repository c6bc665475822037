// Lifecycle module: see DESIGN.md.
