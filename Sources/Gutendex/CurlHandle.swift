internal import CCurl

/// A libcurl easy handle and the header list it points to.
///
/// `@unchecked Sendable`: the pointers are used by one thread at a time. The transfer's
/// initialiser configures them before anyone else can see the transfer; then only the engine's
/// thread drives the handle, and `release` runs from the transfer's deinit, when no other
/// reference (and so no thread) is left.
final class CurlHandle: @unchecked Sendable {
  let easy: UnsafeMutableRawPointer
  private(set) var headerList: UnsafeMutablePointer<curl_slist>?
  /// libcurl writes its message for the last failure here (certificate problems, mostly).
  let errorBuffer: UnsafeMutablePointer<CChar>

  init(easy: UnsafeMutableRawPointer) {
    self.easy = easy
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
  }

  /// libcurl's message for the last failure, or "".
  var errorMessage: String {
    String(cString: errorBuffer)
  }

  /// Replaces the request's header list (`Name: value` lines).
  func setHeaders(_ lines: [String]) {
    var list: UnsafeMutablePointer<curl_slist>?
    // An empty `Expect:` stops libcurl adding one: a body (a small JSON document) goes out
    // with the head, not after a wait for `100 Continue`.
    for line in lines + ["Expect:"] {
      list = gb_curl_slist_append(list, line)
    }
    if let headerList { gb_curl_slist_free_all(headerList) }
    headerList = list
  }

  /// Frees the handle and the list.
  func release() {
    gb_curl_easy_cleanup(easy)
    errorBuffer.deallocate()
    if let headerList { gb_curl_slist_free_all(headerList) }
    headerList = nil
  }
}
