print("gutenberg: not yet wired")
