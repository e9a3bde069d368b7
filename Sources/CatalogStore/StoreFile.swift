import Foundation
import GRDB

/// A store backed by one SQLite file, whose reads and writes report failures naming that file.
protocol StoreFile {
  var pool: DatabasePool { get }
  var databaseURL: URL { get }
}

extension StoreFile {
  func reading<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try pool.read(body)
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }

  @discardableResult
  func writing<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try pool.write(body)
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }
}

extension FavoritesStore: StoreFile {}
extension PageCache: StoreFile {}
