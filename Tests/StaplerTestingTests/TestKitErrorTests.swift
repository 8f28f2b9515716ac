import StaplerTesting
import Testing

@Suite("Test kit: errors")
struct TestKitErrorTests {
    @Test("every error names what the test must look at")
    func errorsNameTheirSubject() {
        #expect(
            TestKitError.notSettled(pending: [.append(key: 10)]).description
                == "the list did not settle; still pending: append(key: 10)")
        #expect(TestKitError.unknownKey("20").description.contains("key 20"))
        #expect(TestKitError.scrolledPastEnd(requested: 500, count: 100).description.contains("500"))
    }
}
