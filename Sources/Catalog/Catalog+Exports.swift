// The store's value types (Favorite, FavoriteOrder, CacheInfo, LibraryEntry, ImportSummary,
// StoreError, StoreLocation, ...) are part of Catalog's API: a module that imports Catalog
// gets them, without importing the store itself.
@_exported import CatalogStore
