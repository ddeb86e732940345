import Foundation
import PackagePlugin

/// Compiles a target's .sql and .html files into it (issue #39): the `embed-files` tool writes
/// them into one generated Swift file, `enum EmbeddedFiles`, as string literals that keep every
/// byte, so the binaries carry them and need no resource bundle beside them.
///
/// Why not SwiftPM's `.embedInCode` resources: they embed the bytes too, but each file only as a
/// property whose name is the file's name mangled (`20260101000000_example.sql` becomes
/// `PackageResources._0260101000000_example_sql`, its first digit lost) and with no list of
/// them, so every migration's name would have to be said again in Swift. Here a target's
/// migrations are its `Migrations/` folder: every file in it, in name order, with its name.
@main
struct EmbedFiles: BuildToolPlugin {
    static let extensions: Set<String> = ["sql", "html"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // A target's files SwiftPM has no use of (.sql, .html) come to its plugins as `.unknown`
        // (and without the "unhandled files" warning).
        guard let module = target.sourceModule else { return [] }
        let inputs = module.sourceFiles.filter { $0.type == .unknown && Self.extensions.contains($0.url.pathExtension) }
            .map(\.url).sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [.buildCommand(displayName: "Embedding \(target.name)'s \(inputs.count) SQL and HTML files",
                              executable: try context.tool(named: "embed-files").url,
                              arguments: [output.path] + inputs.map(\.path),
                              inputFiles: inputs, outputFiles: [output])]
    }
}
