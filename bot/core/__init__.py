"""The core layer: plain data, errors, settings, the message catalogue and the small
helpers every layer uses. It imports nothing above it (docs/architecture.md, Layers)."""
