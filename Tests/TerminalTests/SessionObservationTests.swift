import Foundation
import Gutendex
import Testing

@testable import Terminal

/// The interactive session draws by observing the view model of the screen on display: a
/// change heard between commands is drawn at once, and a screen left behind is not observed.
@MainActor
@Suite(.serialized)
struct SessionObservationTests {
  typealias Capture = OneShotOutputTests.Capture

  func session() async throws -> (InteractiveSession, Capture, URL) {
    let capture = Capture()
    let (app, directory) = try await OneShotOutputTests.app(capture)
    let session = InteractiveSession(
      service: app.service, output: capture.output(), prefetch: false)
    return (session, capture, directory)
  }

  @Test func aChangeBetweenCommandsIsDrawnAtOnce() async throws {
    let (session, capture, directory) = try await session()
    defer { try? FileManager.default.removeItem(at: directory) }
    await session.start()
    let first = capture.out
    #expect(first.contains("page 1 of"), "\(first)")

    // Another part of the program (not a command) marks row 1 as a favourite.
    await session.browser.toggleFavorites(rows: [1])

    let redrawn = String(capture.out.dropFirst(first.count))
    #expect(redrawn.contains("page 1 of"), "the page was not drawn again:\n\(redrawn)")
    #expect(redrawn.contains("*"), "the new favourite mark is missing:\n\(redrawn)")
  }

  @Test func aScreenLeftBehindIsNoLongerObserved() async throws {
    let (session, capture, directory) = try await session()
    defer { try? FileManager.default.removeItem(at: directory) }
    await session.start()
    #expect(await session.handle("F"))
    #expect(session.screen == .favorites)
    let onFavorites = capture.out

    // The browser changes while the favourites are on screen: nothing is drawn for it.
    await session.browser.next()
    #expect(session.browser.current.page == 2)
    #expect(capture.out == onFavorites)

    // The favourites screen is observed: a favourite added anywhere (here through the
    // browser's model) reaches it through the store's announcement and is drawn.
    await session.browser.toggleFavorites(rows: [2])
    let redrawn = String(capture.out.dropFirst(onFavorites.count))
    #expect(redrawn.contains("Favourites · 1 book"), "\(redrawn)")

    // Back on the list, the browser is observed again and the favourites no longer are.
    #expect(await session.handle("b"))
    let back = capture.out
    await session.favorites.setOrder(.title)
    #expect(capture.out == back)
  }

  @Test func aCommandDrawsItsScreenOnceAtTheEnd() async throws {
    let (session, capture, directory) = try await session()
    defer { try? FileManager.default.removeItem(at: directory) }
    await session.start()
    let before = capture.out
    // `n` passes through loading to the next page: one drawing, not one per state.
    #expect(await session.handle("n"))
    let drawn = String(capture.out.dropFirst(before.count))
    #expect(drawn.components(separatedBy: "page 2 of").count == 2, "\(drawn)")
    #expect(!drawn.contains("page 1 of"), "\(drawn)")
  }
}
