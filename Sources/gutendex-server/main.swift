print("gutendex-server: not yet wired")
