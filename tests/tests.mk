check:
