/// Fits text into a terminal width without dropping any of it: a head line, then words filled greedily onto
/// continuation lines indented by `indent`; a word longer than a continuation line is cut across lines, whole.
public enum TextWrap {
    /// `head` (cut onto continuation lines past `width`), then `words` separated by one space, each line at most
    /// `width` characters and without trailing spaces.
    public static func lines(head: String, words: [String], indent: Int, width: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let room = max(1, width - indent)
        var lines: [String] = []
        var rest = Substring(head)
        lines.append(String(rest.prefix(width)).trimmingTrailingSpaces())
        rest = rest.dropFirst(width)
        while !rest.isEmpty {
            lines.append(pad + String(rest.prefix(room)).trimmingTrailingSpaces())
            rest = rest.dropFirst(room)
        }
        var current = ""
        for word in words where !word.isEmpty {
            if !current.isEmpty {
                if current.count + 1 + word.count <= room {
                    current += " " + word
                    continue
                }
                lines.append(pad + current)
                current = ""
            }
            var piece = Substring(word)
            while piece.count > room {
                lines.append(pad + String(piece.prefix(room)).trimmingTrailingSpaces())
                piece = piece.dropFirst(room)
            }
            current = String(piece)
        }
        if !current.isEmpty { lines.append(pad + current.trimmingTrailingSpaces()) }
        return lines
    }
}

extension String {
    /// The text without the spaces at its end.
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
