print("gutenberg-bench: not yet wired")
