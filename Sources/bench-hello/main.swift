// The baseline for `gutenberg-bench`: the smallest Swift program that prints a line.
//
// With `--linger` it stays 200 ms before exiting, so the bench can read its resident set size
// from /proc while it runs (the memory figure's baseline).
#if canImport(Glibc)
  import Glibc
#endif

print("hello")
if CommandLine.arguments.contains("--linger") {
  usleep(200_000)
}
