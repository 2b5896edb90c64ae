/// A1-style names of cells and columns, for messages and formulas.
public enum CellReference {
    /// The column letters of a 0-based column: 0 is A, 25 is Z, 26 is AA.
    public static func column(_ column: Int) -> String {
        var letters: [Character] = []
        var rest = column + 1
        while rest > 0 {
            let digit = (rest - 1) % 26
            letters.insert(Character(Unicode.Scalar(UInt8(65 + digit))), at: 0)
            rest = (rest - 1) / 26
        }
        return String(letters)
    }

    /// The A1 name of a 0-based (row, column): (0, 0) is A1.
    public static func name(row: Int, column: Int) -> String { "\(Self.column(column))\(row + 1)" }
}
