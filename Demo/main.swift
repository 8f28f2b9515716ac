import Foundation

// `swift run Demo`: a guided tour of Stapler's Paginator. See `--help` and Options.swift.
let status: ExitStatus
do {
    let options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
    if options.showsHelp {
        print(DemoOptions.help)
        status = .success
    } else if let url = options.url, let storePath = options.storePath {
        status = await StoreRun.run(url: url, storePath: storePath, options: options)
    } else if let url = options.url {
        status = await HTTPRun.run(url: url, options: options)
    } else {
        status = SimulatedRun.run(options)
    }
} catch {
    FileHandle.standardError.write(Data("Demo: \(error)\nRun `swift run Demo --help` for the options.\n".utf8))
    status = .usage
}
exit(status.rawValue)
