import Stapler

/// A product of the simulated shop: the item type of the default run (`Codable`, so the relaunch scene
/// can save a list of them).
struct Product: ListItem, Codable, Equatable {
    let id: Int
    let category: Category
}

/// The categories the user can search for: the query type of the default run (`nil` lists all).
enum Category: String, CaseIterable, Codable, Sendable {
    case books
    case music
    case films
    case games
}

/// One response of the simulated `GET /products?offset=&limit=`: a page and the total, as an
/// offset + total API sends it; a saved list keeps the latest one as its metadata.
struct ProductsPage: PaginatedResponse, Codable {
    let items: [Product]
    let total: Int
}

/// An error status of the simulated server.
struct ServerError: Error, CustomStringConvertible {
    let status: Int
    let reason: String

    var description: String { "\(status) \(reason)" }
}

/// The simulated shop's data: `count` products with seeded categories.
struct SimulatedCatalog: Sendable {
    let products: [Product]

    init(count: Int, random: inout SplitMix) {
        products = (0..<count).map { index in
            Product(id: index + 1, category: Category.allCases[Int(random.next() % UInt64(Category.allCases.count))])
        }
    }

    /// The products a query lists, in order.
    func products(for query: Category?) -> [Product] {
        guard let query else { return products }
        return products.filter { $0.category == query }
    }

    /// The ids a query lists, in order.
    func ids(for query: Category?) -> [Int] {
        products(for: query).map(\.id)
    }

    /// The category with the most products (the first such), for a search that spans pages.
    var largestCategory: Category {
        Category.allCases.max { lhs, rhs in
            let (left, right) = (products(for: lhs).count, products(for: rhs).count)
            return left != right ? left < right : lhs.rawValue > rhs.rawValue
        } ?? .books
    }
}

extension Optional where Wrapped == Category {
    /// How the log names a query.
    var logName: String {
        map { "\"\($0.rawValue)\"" } ?? "all products"
    }
}
