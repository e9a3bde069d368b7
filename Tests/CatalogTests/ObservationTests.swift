import Foundation
import Testing

@testable import Catalog

/// Something an observer captures, to see when the observer is released.
final class Captured: Sendable {}

@MainActor
@Suite("Observation")
struct ObservationTests {
  @Test func deliversTheCurrentValueAtOnce() {
    let state = ObservableState(7)
    let seen = Delivered<Int>()
    let token = state.observe { seen.append($0) }
    #expect(seen.values == [7])
    #expect(!token.isCancelled)
    #expect(state.observerCount == 1)
  }

  @Test func deliversEveryChangeToEveryObserverInSubscriptionOrder() {
    let state = ObservableState("a")
    let order = Delivered<String>()
    let first = state.observe { order.append("first:\($0)") }
    let second = state.observe { order.append("second:\($0)") }
    state.set("b")
    state.update { $0 += "c" }
    #expect(
      order.values == [
        "first:a", "second:a", "first:b", "second:b", "first:bc", "second:bc",
      ])
    #expect(state.value == "bc")
    withExtendedLifetime((first, second)) {}
  }

  @Test func cancelStopsDelivery() {
    let state = ObservableState(0)
    let seen = Delivered<Int>()
    let token = state.observe { seen.append($0) }
    state.set(1)
    token.cancel()
    state.set(2)
    #expect(seen.values == [0, 1])
    #expect(token.isCancelled)
    #expect(state.observerCount == 0)
  }

  @Test func droppingTheTokenStopsDelivery() {
    let state = ObservableState(0)
    let seen = Delivered<Int>()
    var token: ObservationToken? = state.observe { seen.append($0) }
    state.set(1)
    #expect(token != nil)
    token = nil
    state.set(2)
    #expect(seen.values == [0, 1])
    #expect(state.observerCount == 0)
  }

  @Test func cancelReleasesTheObserverAndWhatItCaptured() {
    let state = ObservableState(0)
    weak var weakCaptured: Captured?
    var token: ObservationToken?
    do {
      let captured = Captured()
      weakCaptured = captured
      token = state.observe { _ in withExtendedLifetime(captured) {} }
    }
    #expect(weakCaptured != nil, "the live observation keeps what it captured")
    token?.cancel()
    #expect(weakCaptured == nil)
    #expect(token?.isCancelled == true)
  }

  @Test func droppingTheTokenReleasesWhatTheObserverCaptured() {
    let state = ObservableState(0)
    weak var weakCaptured: Captured?
    var token: ObservationToken?
    do {
      let captured = Captured()
      weakCaptured = captured
      token = state.observe { _ in withExtendedLifetime(captured) {} }
    }
    #expect(weakCaptured != nil)
    #expect(token != nil)
    token = nil
    #expect(weakCaptured == nil)
  }

  @Test func droppingTheStateReleasesObserversAndLeavesTokensHarmless() {
    weak var weakCaptured: Captured?
    weak var weakState: ObservableState<Int>?
    var token: ObservationToken?
    do {
      let captured = Captured()
      weakCaptured = captured
      let state = ObservableState(0)
      weakState = state
      token = state.observe { _ in withExtendedLifetime(captured) {} }
    }
    #expect(weakState == nil, "a token must not keep its state alive")
    #expect(weakCaptured == nil, "observers go with their state")
    token?.cancel()
    #expect(token?.isCancelled == true)
  }

  @Test func cancellingTwiceIsHarmless() {
    let state = ObservableState(0)
    let seen = Delivered<Int>()
    let token = state.observe { seen.append($0) }
    let other = state.observe { _ in }
    token.cancel()
    token.cancel()
    state.set(1)
    #expect(seen.values == [0])
    #expect(state.observerCount == 1, "the second cancel must not remove another observer")
    withExtendedLifetime(other) {}
  }

  @Test func tokensCompareByIdentity() {
    let state = ObservableState(0)
    let first = state.observe { _ in }
    let second = state.observe { _ in }
    #expect(first == first)
    #expect(first != second)
    #expect(Set([first, second, first]).count == 2)
  }

  @Test func anObserverCancellingALaterOneDuringDeliveryStopsItAtOnce() {
    let state = ObservableState(0)
    let seen = Delivered<String>()
    let tokens = TokenBox()
    tokens.first = state.observe { value in
      seen.append("first:\(value)")
      if value == 1 { tokens.second?.cancel() }
    }
    tokens.second = state.observe { seen.append("second:\($0)") }
    state.set(1)
    state.set(2)
    #expect(seen.values == ["first:0", "second:0", "first:1", "first:2"])
  }

  @Test func anObserverCancellingItselfDuringDeliveryGetsNothingMore() {
    let state = ObservableState(0)
    let seen = Delivered<String>()
    let tokens = TokenBox()
    tokens.first = state.observe { value in
      seen.append("first:\(value)")
      if value == 1 { tokens.first?.cancel() }
    }
    let second = state.observe { seen.append("second:\($0)") }
    state.set(1)
    state.set(2)
    #expect(seen.values == ["first:0", "second:0", "first:1", "second:1", "second:2"])
    withExtendedLifetime(second) {}
  }

  @Test func anObserverSubscribingDuringDeliveryGetsTheCurrentValueThenLaterChanges() {
    let state = ObservableState(0)
    let seen = Delivered<String>()
    let tokens = TokenBox()
    tokens.first = state.observe { value in
      seen.append("first:\(value)")
      if value == 1 {
        tokens.second = state.observe { seen.append("late:\($0)") }
      }
    }
    state.set(1)
    state.set(2)
    #expect(seen.values == ["first:0", "first:1", "late:1", "first:2", "late:2"])
  }

  @Test func aChangeMadeDuringDeliveryReachesEveryObserverAfterTheOneBeforeIt() {
    let state = ObservableState(0)
    let seen = Delivered<String>()
    let tokens = TokenBox()
    tokens.first = state.observe { value in
      seen.append("first:\(value)")
      // A screen that reacts to a change by changing the state again (dismissing an error).
      if value == 1 { state.set(2) }
    }
    tokens.second = state.observe { seen.append("second:\($0)") }
    state.set(1)
    #expect(state.value == 2)
    #expect(
      seen.values == ["first:0", "second:0", "first:1", "second:1", "first:2", "second:2"],
      "every observer sees every value in order and ends on the current one")
  }

  @Test func noDeliveryAfterTheViewModelIsGone() throws {
    let harness = try CatalogHarness()
    let seen = Delivered<BrowserViewModel.State>()
    weak var weakModel: BrowserViewModel?
    var token: ObservationToken?
    do {
      let model = BrowserViewModel(service: harness.service, prefetchEnabled: false)
      weakModel = model
      token = model.observe { seen.append($0) }
    }
    #expect(weakModel == nil, "observing must not keep the view model alive")
    #expect(seen.values.count == 1)
    token?.cancel()
    #expect(token?.isCancelled == true)
    #expect(seen.values.count == 1)
  }

  @Test func aTokenDroppedOnAnotherThreadStopsDelivery() async {
    let state = ObservableState(0)
    let seen = Delivered<Int>()
    let token = state.observe { seen.append($0) }
    await Task.detached { token.cancel() }.value
    state.set(1)
    #expect(seen.values == [0])
    #expect(state.observerCount == 0)
  }
}

/// Tokens that observers themselves reach for (to cancel during delivery).
@MainActor
final class TokenBox {
  var first: ObservationToken?
  var second: ObservationToken?
}
