// The cold-start baseline for `gutenberg-bench`: the smallest Swift program that prints a line.
print("hello")
