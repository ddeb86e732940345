// `geo-project` was the map stage's front before it was named `geo-map` like `make map` and
// the `MapStage`. Scripts that call the old name keep working, with a note on standard error.
import Foundation

let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
let target = me.deletingLastPathComponent().appendingPathComponent("geo-map").path
FileHandle.standardError.write(Data("geo-project is deprecated: use geo-map (same arguments)\n".utf8))
let args = [target] + CommandLine.arguments.dropFirst()
let cArgs = args.map { strdup($0) } + [nil]
execv(target, cArgs)
FileHandle.standardError.write(Data("geo-project: cannot run \(target): \(String(cString: strerror(errno)))\n".utf8))
exit(127)
