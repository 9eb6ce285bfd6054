/// A heap box giving a large filter a one-word footprint inside ``AnyRSSIFilter``, with
/// copy-on-write value semantics.
final class FilterBox<Filter: RSSIFilter>: @unchecked Sendable {
    // @unchecked: `value` is only mutated through `AnyRSSIFilter`, after a uniqueness check.
    var value: Filter
    init(_ value: Filter) { self.value = value }
}
