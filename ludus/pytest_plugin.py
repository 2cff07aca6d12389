"""pytest plugin: fixtures for game tests and collection of `test` blocks in .ludus files."""
