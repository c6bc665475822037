// Realtime module: see DESIGN.md.
