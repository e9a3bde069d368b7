import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the environment says about proxies and trusted certificates, read the way the curl tool
/// reads it, so a user behind a proxy or a company CA sets the variables they already set for
/// curl.
///
/// - Proxies: `<scheme>_proxy` then `<SCHEME>_PROXY` (`http_proxy`, `https_proxy`), then
///   `all_proxy`/`ALL_PROXY`; hosts in `no_proxy`/`NO_PROXY` (comma-separated names, domains,
///   IP addresses, `*` for all) go direct. The proxy is set on each request explicitly, so
///   libcurl's own reading of the environment never adds to it.
/// - Certificates: `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`, is the PEM file of trusted CAs
///   (instead of the system's); `SSL_CERT_DIR` a directory of them.
struct CurlSettings: Sendable, Hashable {
  /// Proxy URL per lower-cased scheme (`http`, `https`), and for all schemes.
  var proxies: [String: String] = [:]
  var allProxy: String?
  /// The `no_proxy` list, handed to libcurl as it is.
  var noProxy: String?
  /// The CA bundle and directory to trust instead of the system's.
  var caFile: String?
  var caDirectory: String?
  /// `~/.netrc`, where credentials for a server, mirror or feed are kept (a URL on the command
  /// line is printed without them); nil when there is none, or when other users may read it
  /// or it is not the user's own regular file (its credentials are then not used).
  var netrcFile: String?

  /// The settings the variables in `environment` give.
  init(environment: [String: String]) {
    func value(_ names: String...) -> String? {
      for name in names {
        if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
          return value
        }
      }
      return nil
    }
    for scheme in ["http", "https"] {
      proxies[scheme] = value("\(scheme)_proxy", "\(scheme.uppercased())_PROXY")
    }
    allProxy = value("all_proxy", "ALL_PROXY")
    noProxy = value("no_proxy", "NO_PROXY")
    caFile = value("CURL_CA_BUNDLE", "SSL_CERT_FILE")
    caDirectory = value("SSL_CERT_DIR")
    if let home = value("HOME") {
      let path = (home.hasSuffix("/") ? home : home + "/") + ".netrc"
      var info = stat()
      // lstat: a link is not followed to someone else's file.
      if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
        info.st_mode & 0o077 == 0
      {
        netrcFile = path
      }
    }
  }

  /// The proxy for `url`, or "" for none (which also stops libcurl reading the environment).
  func proxy(for url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    return proxies[scheme] ?? allProxy ?? ""
  }
}
