import Foundation
import GeoCluster
import GeoCore

/// `meridian cluster --live`: a live index fed by a stream of changes on standard input (see
/// `LiveClusterCommand`), answering each batch with what changed in the view, as JSON lines.
///
/// Output, one JSON object per line:
/// - a bad line: `{"line": N, "error": "...", "kind": "..."}` (also on standard error), written
///   when its batch ends, in line order with the batch's other errors; it changes nothing, the
///   rest of its batch is applied as one batch, exactly as if the bad line were not there (so
///   the same serials and cluster ids); a bad `view` or `commit` line still ends the batch, its
///   error written after the batch's record, and the view stays as it was;
/// - a `view` line: `{"line": N, "view": [W, S, E, N], "zoom": Z, "features": [...]}`, everything
///   in the new view;
/// - the end of a batch (a blank or `commit` line, a `view` line, the end of input) that had
///   change lines, even if all of them were bad: `{"line": N, "batch": B, "applied": K,
///   "count": C}`, plus, once a view is set, `"appeared"`, `"disappeared"` and `"changed"` in that
///   view (for a batch ended by a `view` line, the view before it).
enum LiveClusterMode {
    static func run(options: ClusterOptions, console: Console) -> Int32 {
        var index: LiveClusterIndex<String>
        do {
            index = try LiveClusterIndex(options: options)
        } catch {
            console.printError("meridian cluster: \(error.message)")
            return ExitCode.usage
        }
        var failed = false
        // The batch's lines in order: a change, or the error of a line that could not be read
        // (reported with the batch, so every record comes in line order).
        var pending = [(line: Int, change: Result<LiveClusterChange<String>, GeoError>)]()
        var view: (box: BoundingBox, zoom: Double)?
        var batches = 0
        var before = index.snapshot

        func report(_ line: Int, _ error: GeoError) {
            failed = true
            let message =
                error.column.map { c in
                    error.message.contains("column \(c)")
                        ? error.message : "\(error.message) (column \(c))"
                } ?? error.message
            console.printError("meridian cluster: line \(line): \(message)")
            console.print(
                jsonLine([
                    "line": .integer(line), "error": .string(message),
                    "kind": .string(error.kind.name),
                ]))
        }

        /// Applies the batch as one batch without its bad lines (each reported, in line order)
        /// and writes its record.
        func commit(at line: Int) {
            guard !pending.isEmpty else { return }
            var changes = [LiveClusterChange<String>](), lines = [Int]()
            var errors = [(line: Int, error: GeoError)]()
            for (number, entry) in pending {
                switch entry {
                case .success(let change):
                    changes.append(change)
                    lines.append(number)
                case .failure(let error): errors.append((number, error))
                }
            }
            var applied = changes.count
            do {
                for (position, error) in try index.applyLeavingOutBadChanges(changes) {
                    // The library names the change by its place in the batch; the line says it.
                    let prefix = "change \(position + 1): "
                    let text =
                        error.message.hasPrefix(prefix)
                        ? String(error.message.dropFirst(prefix.count)) : error.message
                    errors.append(
                        (lines[position], GeoError(error.kind, text, column: error.column)))
                    applied -= 1
                }
            } catch {
                // The whole batch is refused (past 2^31 - 1 insertions): every change line says so.
                errors += lines.map { ($0, error) }
                applied = 0
            }
            errors.sort { $0.line < $1.line }
            for (number, error) in errors { report(number, error) }
            batches += 1
            var record: [String: JSONValue] = [
                "line": .integer(line), "batch": .integer(batches),
                "applied": .integer(applied), "count": .integer(index.count),
            ]
            pending.removeAll()
            let after = index.snapshot
            if let view {
                let diff = LiveClusterSnapshot.diff(
                    from: before, to: after, in: view.box, zoom: view.zoom)
                record["appeared"] = .array(
                    diff.appeared.map { a in
                        var f = feature(a.feature, of: after)
                        if let source = a.source { f["source"] = identity(source) }
                        return .object(f)
                    })
                record["disappeared"] = .array(
                    diff.disappeared.map { d in
                        var f = feature(d.feature, of: before)
                        if let destination = d.destination {
                            f["destination"] = identity(destination)
                        }
                        return .object(f)
                    })
                record["changed"] = .array(diff.changed.map { .object(feature($0.new, of: after)) })
            }
            before = after
            console.print(jsonLine(record))
        }

        var number = 0
        while let text = console.readLine() {
            number += 1
            let command: LiveClusterCommand?
            // A line that is not UTF-8 or too long arrives as empty text: it is a bad change of
            // the batch, not a blank line that ends it.
            let problem = console.lineProblem()
            do throws(GeoError) {
                if let problem { throw GeoError(.malformedInput, problem) }
                command = try LiveClusterCommand(line: text)
            } catch {
                if problem == nil && LiveClusterCommand.endsBatch(text) {
                    // A malformed view or commit still ends the batch; the view stays.
                    commit(at: number)
                    report(number, error)
                } else {
                    pending.append((number, .failure(error)))
                }
                continue
            }
            switch command {
            case nil:
                continue
            case .change(let change)?:
                pending.append((number, .success(change)))
            case .commit?:
                commit(at: number)
            case .view(let box, let zoom)?:
                commit(at: number)
                view = (box, zoom)
                let now = index.snapshot
                let features = now.clusters(in: box, zoom: zoom).map {
                    JSONValue.object(feature($0, of: now))
                }
                console.print(
                    jsonLine([
                        "line": .integer(number),
                        "view": [
                            .number(box.west), .number(box.south), .number(box.east),
                            .number(box.north),
                        ],
                        "zoom": .number(zoom), "features": .array(features),
                    ]))
            }
        }
        commit(at: number)
        return failed ? ExitCode.badInput : ExitCode.success
    }

    /// How a feature is named in the stream: a cluster by its id, a point by its key.
    static func identity(_ feature: ClusterFeature<String>) -> JSONValue {
        switch feature {
        case .cluster(let c): ["cluster_id": .integer(c.id)]
        case .point(let p): ["key": .string(p.element)]
        }
    }

    /// A feature of a snapshot as GeoJSON: clusters with supercluster's properties (and their
    /// category), points with their key (and their category).
    static func feature(
        _ feature: ClusterFeature<String>, of snapshot: LiveClusterSnapshot<String>
    ) -> [String: JSONValue] {
        let c = feature.coordinate
        var object: [String: JSONValue] = [
            "type": "Feature",
            "geometry": [
                "type": "Point", "coordinates": [.number(c.longitude), .number(c.latitude)],
            ],
        ]
        switch feature {
        case .cluster(let cluster):
            object["id"] = .integer(cluster.id)
            object["properties"] = ClusterCommand.properties(cluster, aggregates: [])
        case .point(let point):
            object["id"] = .string(point.element)
            var properties: [String: JSONValue] = ["key": .string(point.element)]
            if let category = snapshot.clusteringIdentifier(of: point) {
                properties["category"] = .string(category)
            }
            object["properties"] = .object(properties)
        }
        return object
    }
}
