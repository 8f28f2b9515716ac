import Foundation

extension URL {
    /// The value of query parameter `name`, if the URL has it.
    func queryValue(_ name: String) -> String? {
        URLComponents(url: self, resolvingAgainstBaseURL: true)?.queryItems?.first { $0.name == name }?.value
    }

    /// This URL with each parameter of `parameters` set (replaced if present, appended if not).
    func settingQuery(_ parameters: KeyValuePairs<String, String>) -> URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return self }
        var items = components.queryItems ?? []
        for (name, value) in parameters {
            if let index = items.firstIndex(where: { $0.name == name }) {
                items[index].value = value
            } else {
                items.append(URLQueryItem(name: name, value: value))
            }
        }
        components.queryItems = items
        return components.url ?? self
    }
}
