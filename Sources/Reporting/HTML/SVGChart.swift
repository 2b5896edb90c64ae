import Foundation
import XLSX

/// One chart of the HTML report drawn as inline SVG from the same `ChartBlock` the workbook's native chart is drawn
/// from: lines, columns side by side or stacked, or horizontal bars, with a value axis of round steps, the zero line,
/// and category labels (every k-th when there are many). Gains and losses keep the colours the workbook gives them.
/// Values are the cells' exact decimals as doubles, used only to place shapes; the figures themselves are in the
/// report's tables.
struct SVGChart {
    /// The block drawn.
    let block: ChartBlock

    /// Width and height of the drawing, in SVG user units (CSS pixels when shown at full size).
    static let width = 960.0, height = 380.0
    /// The default palette (Excel's first six series colours), for series without a colour of their own.
    static let palette: [UInt32] = [0x4472C4, 0xED7D31, 0xA5A5A5, 0xFFC000, 0x5B9BD5, 0x70AD47]

    /// The colour of series `index` as `#RRGGBB`.
    func color(_ index: Int) -> String {
        let value = (index < block.seriesColors.count ? block.seriesColors[index] : nil) ?? Self.palette[index % Self.palette.count]
        return String(format: "#%06X", value)
    }

    /// The value a cell places a shape at (a fraction for a percentage), nil for an empty or text cell.
    static func value(_ cell: Cell) -> Double? {
        switch cell {
        case .money(let micros, _): return Double(micros) / 1_000_000
        case .integer(let value): return Double(value)
        case .percent(let value, _): return value
        case .number(let value): return value
        default: return nil
        }
    }

    /// True when the value axis shows percentages.
    var isPercent: Bool { block.valueFormat.hasSuffix("%") }

    /// The `<svg>` element, with a `<title>` for screen readers.
    func render() -> String {
        let horizontal = block.chart.kind == .bar || block.chart.kind == .stackedBar
        let stacked = block.chart.kind == .stackedColumn || block.chart.kind == .stackedBar
        let values = block.values.map { $0.map(Self.value) }
        let (low, high) = Self.range(values, stacked: stacked)
        let axis = ValueAxis(low: low, high: high)
        let left = horizontal ? 200.0 : 90.0, right = 20.0, top = 16.0, bottom = horizontal ? 40.0 : 110.0
        let plotWidth = Self.width - left - right, plotHeight = Self.height - top - bottom
        let count = max(1, block.categories.count)
        let band = (horizontal ? plotHeight : plotWidth) / Double(count)
        let length = horizontal ? plotWidth : plotHeight
        /// The pixel along the value axis of `value`.
        func along(_ value: Double) -> Double {
            let share = (value - axis.low) / (axis.high - axis.low)
            return horizontal ? left + share * length : top + (1 - share) * length
        }
        /// The pixel along the category axis of a position measured in bands from the first category.
        func across(_ bands: Double) -> Double { (horizontal ? top : left) + bands * band }
        /// An SVG rectangle between category positions a…b and values v…w.
        func rect(_ a: Double, _ b: Double, _ v: Double, _ w: Double, fill: String, tip: String) -> String {
            let (c0, c1) = (across(a), across(b)), (p0, p1) = (along(v), along(w))
            let (x, y, rectWidth, rectHeight) = horizontal
                ? (min(p0, p1), c0, abs(p1 - p0), c1 - c0)
                : (c0, min(p0, p1), c1 - c0, abs(p1 - p0))
            return "<rect x=\"\(Self.fixed(x))\" y=\"\(Self.fixed(y))\" width=\"\(Self.fixed(rectWidth))\" height=\"\(Self.fixed(rectHeight))\" "
                + "fill=\"\(fill)\"><title>\(HTMLText.escape(tip))</title></rect>"
        }

        var parts: [String] = []
        parts.append("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" "
            + "class=\"chart\"><title>\(HTMLText.escape(block.chart.title))</title>")
        // Value axis: grid lines and labels at round steps; the zero line darker.
        for tick in axis.ticks {
            let at = along(tick)
            let (x1, y1, x2, y2) = horizontal ? (at, top, at, top + plotHeight) : (left, at, left + plotWidth, at)
            let stroke = tick == 0 ? "#555" : "#ddd"
            parts.append("<line x1=\"\(Self.fixed(x1))\" y1=\"\(Self.fixed(y1))\" x2=\"\(Self.fixed(x2))\" y2=\"\(Self.fixed(y2))\" stroke=\"\(stroke)\"/>")
            let label = HTMLText.escape(axis.label(tick, percent: isPercent))
            parts.append(horizontal
                ? "<text x=\"\(Self.fixed(at))\" y=\"\(Self.fixed(top + plotHeight + 16))\" text-anchor=\"middle\">\(label)</text>"
                : "<text x=\"\(Self.fixed(left - 6))\" y=\"\(Self.fixed(at + 4))\" text-anchor=\"end\">\(label)</text>")
        }
        // Category labels: every k-th, so they never overlap.
        let every = max(1, Int((Double(count) / (horizontal ? 30 : 24)).rounded(.up)))
        for (index, category) in block.categories.enumerated() where index % every == 0 || index == count - 1 {
            let at = across(Double(index) + 0.5)
            let text = HTMLText.escape(Self.shortened(category, to: horizontal ? 30 : 24))
            parts.append(horizontal
                ? "<text x=\"\(Self.fixed(left - 6))\" y=\"\(Self.fixed(at + 4))\" text-anchor=\"end\">\(text)</text>"
                : "<text transform=\"translate(\(Self.fixed(at)),\(Self.fixed(top + plotHeight + 12))) rotate(-45)\" text-anchor=\"end\">\(text)</text>")
        }
        let series = block.seriesNames.count
        switch block.chart.kind {
        case .line:
            for s in 0..<series {
                var runs: [[String]] = [[]]
                for (index, row) in values.enumerated() {
                    guard s < row.count, let value = row[s] else { runs.append([]); continue }
                    runs[runs.count - 1].append("\(Self.fixed(across(Double(index) + 0.5))),\(Self.fixed(along(value)))")
                }
                for run in runs where !run.isEmpty {
                    parts.append("<polyline fill=\"none\" stroke=\"\(color(s))\" stroke-width=\"2\" points=\"\(run.joined(separator: " "))\">"
                        + "<title>\(HTMLText.escape(block.seriesNames[s]))</title></polyline>")
                }
            }
        case .column, .bar:
            let width = 0.8 / Double(max(1, series))
            for (index, row) in values.enumerated() {
                for s in 0..<min(series, row.count) {
                    guard let value = row[s] else { continue }
                    let start = Double(index) + 0.1 + Double(s) * width
                    parts.append(rect(start, start + width, 0, value, fill: color(s),
                                      tip: "\(block.categories[index]) · \(block.seriesNames[s]): \(axis.label(value, percent: isPercent))"))
                }
            }
        case .stackedColumn, .stackedBar:
            for (index, row) in values.enumerated() {
                var up = 0.0, down = 0.0
                for s in 0..<min(series, row.count) {
                    guard let value = row[s], value != 0 else { continue }
                    let from = value > 0 ? up : down
                    if value > 0 { up += value } else { down += value }
                    parts.append(rect(Double(index) + 0.15, Double(index) + 0.85, from, from + value, fill: color(s),
                                      tip: "\(block.categories[index]) · \(block.seriesNames[s]): \(axis.label(value, percent: isPercent))"))
                }
            }
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// The lowest and highest value the axis must show (0 always included; stacks by their positive and negative sums).
    static func range(_ values: [[Double?]], stacked: Bool) -> (Double, Double) {
        var low = 0.0, high = 0.0
        for row in values {
            if stacked {
                high = max(high, row.compactMap { $0 }.filter { $0 > 0 }.reduce(0, +))
                low = min(low, row.compactMap { $0 }.filter { $0 < 0 }.reduce(0, +))
            } else {
                for value in row.compactMap({ $0 }) { high = max(high, value); low = min(low, value) }
            }
        }
        return (low, high)
    }

    /// `text` cut to `limit` characters with an ellipsis.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A coordinate with at most one decimal (the drawing is never finer than that).
    static func fixed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
