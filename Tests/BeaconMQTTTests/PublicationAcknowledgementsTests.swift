import Testing

@testable import BeaconMQTT

/// The PUBACK bookkeeping alone, with plain waiters: a PUBACK confirms only the publication it
/// answers, however libmosquitto reuses its 16-bit ids.
@Suite("PublicationAcknowledgements: a PUBACK confirms only its own publication")
struct PublicationAcknowledgementsTests {
    typealias Book = PublicationAcknowledgements<String>

    @Test("a PUBACK that comes before the delivery waits is kept for it, once")
    func early() {
        var book = Book()
        let r1 = book.acknowledged(7)
        #expect(r1 == nil)
        let r2 = book.wait(for: 7, "first")
        #expect(r2)
        #expect(book.earlyCount == 0)
        // The id's next publication waits for its own PUBACK.
        let r3 = book.wait(for: 7, "second")
        #expect(!r3)
        let r4 = book.acknowledged(7)
        #expect(r4 == "second")
    }

    @Test("the late PUBACK of a delivery that gave up confirms nothing, not even the id's next publication")
    func lateAfterTimeout() {
        var book = Book()
        let r5 = book.wait(for: 1, "A")
        #expect(!r5)
        let r6 = book.giveUp(on: 1)
        #expect(r6 == "A")
        let r7 = book.acknowledged(1) // A's late PUBACK: dropped
        #expect(r7 == nil)
        #expect(book.earlyCount == 0 && book.abandonedCount == 0)
        // The counter comes round to 1 again: B waits for its own PUBACK.
        let r8 = book.wait(for: 1, "B")
        #expect(!r8)
        let r9 = book.acknowledged(1)
        #expect(r9 == "B")
    }

    @Test("an id reused before the abandoned PUBACK came: the first PUBACK is the abandoned one's")
    func reusedBeforeLate() {
        var book = Book()
        let r10 = book.wait(for: 1, "A")
        #expect(!r10)
        let r11 = book.giveUp(on: 1)
        #expect(r11 == "A")
        let r12 = book.wait(for: 1, "B")
        #expect(!r12)
        let r13 = book.acknowledged(1) // A's, late
        #expect(r13 == nil)
        let r14 = book.acknowledged(1) // B's own
        #expect(r14 == "B")
    }

    @Test("the PUBACK of retained state nobody waits for confirms no delivery")
    func unawaited() {
        var book = Book()
        book.publishedUnawaited(3)
        let r15 = book.acknowledged(3)
        #expect(r15 == nil)
        let r16 = book.wait(for: 3, "later")
        #expect(!r16)
        let r17 = book.acknowledged(3)
        #expect(r17 == "later")
        // Its PUBACK before the bookkeeping: consumed, not left for a later delivery.
        let r18 = book.acknowledged(4)
        #expect(r18 == nil)
        book.publishedUnawaited(4)
        let r19 = book.wait(for: 4, "next")
        #expect(!r19)
    }
}
