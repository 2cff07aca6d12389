# The programs here are bad on purpose; tests/language/test_programs.py checks their diagnostics.
# Their `test` blocks are not tests to collect and run.
collect_ignore_glob = ["*.ludus", "*/*.ludus"]
