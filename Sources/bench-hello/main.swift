// The baseline for `gutenberg-bench`: the smallest Swift program that prints a line.
//
// With `--linger` it stays 200 ms before exiting, so the bench can read its resident set size
// from /proc while it runs (the memory figure's baseline).
//
// With `--peak-rss FILE PROGRAM ARGS...` it runs PROGRAM (same standard streams) and writes
// the child's peak resident set size in KiB to FILE. The bench measures short runs this way:
// polling /proc misses the last milliseconds, and `ru_maxrss` of a child spawned by the large
// bench process starts at the bench's own peak, while this launcher is tiny.
#if canImport(Glibc)
  import Glibc

  let arguments = CommandLine.arguments
  if arguments.count >= 4, arguments[1] == "--peak-rss" {
    let argv = arguments.dropFirst(3).map { strdup($0) }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, arguments[3], nil, nil, argv + [nil], environ)
    guard started == 0 else {
      let message =
        "bench-hello: cannot start \(arguments[3]): \(String(cString: strerror(started)))\n"
      _ = message.withCString { write(2, $0, strlen($0)) }
      exit(127)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    if let file = fopen(arguments[2], "w") {
      fputs("\(usage.ru_maxrss)\n", file)
      fclose(file)
    }
    // The child's exit status, so the caller can check the run.
    exit((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
  }
#endif

print("hello")
if CommandLine.arguments.contains("--linger") {
  usleep(200_000)
}
