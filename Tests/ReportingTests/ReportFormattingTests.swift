import Foundation
import JobKit
import Reporting
import Testing
import XLSX

/// The pure parts of build-reports: months and options, the CSV encoding, formatting by column name, chart blocks.
struct ReportFormattingTests {
    @Test func monthsParseAndCount() throws {
        #expect(ReportMonth(text: "2026-02")?.description == "2026-02")
        #expect(ReportMonth(text: "2026-13") == nil && ReportMonth(text: "2026-2") == nil && ReportMonth(text: "２０２６-02") == nil)
        #expect(ReportMonth(year: 2026, month: 1).advanced(by: -1).description == "2025-12")
        #expect(ReportMonth(year: 2026, month: 11).advanced(by: -23).description == "2024-12")
        #expect(ReportMonth(containing: Date(timeIntervalSince1970: 1_795_910_400)).description == "2026-11") // 2026-11-29
        #expect(ReportMonth(year: 2026, month: 3).startText == "2026-03-01 00:00:00+00")
    }

    @Test func optionsDefaultToTwentyFourMonthsEndingAtTheAsOfMonth() throws {
        let asOf = Date(timeIntervalSince1970: 1_795_910_400) // 2026-11-29
        let settings = try ReportOptions.settings(try JobArguments.parse([], options: ReportOptions.all), asOf: asOf)
        #expect(settings.firstMonth.description == "2024-12" && settings.lastMonth.description == "2026-11")
        #expect(settings.currency == "USD" && settings.basis == .corrected && settings.writeCSV && settings.writeXLSX && !settings.rawIdentifiers)
        #expect(settings.outputFolder.path.hasSuffix("Reports/out/2026-11-29"))
        let deployed = try ReportOptions.settings(try JobArguments.parse([], options: ReportOptions.all), asOf: asOf,
                                                  environment: ["REPORT_OUT_DIR": "/var/lib/iap/reports", "REPORT_SQL_DIR": "/opt/iap/Reports"])
        #expect(deployed.outputFolder.path == "/var/lib/iap/reports/2026-11-29" && deployed.sqlFolder.path == "/opt/iap/Reports")
        let one = try ReportOptions.settings(try JobArguments.parse(["--period", "2026-03", "--format", "csv", "--basis", "known",
                                                                     "--currency", "EUR"], options: ReportOptions.all), asOf: asOf)
        #expect(one.firstMonth == one.lastMonth && one.lastMonth.description == "2026-03" && !one.writeXLSX && one.basis == .known)
        let span = try ReportOptions.settings(try JobArguments.parse(["--to", "2026-06"], options: ReportOptions.all), asOf: asOf)
        #expect(span.firstMonth.description == "2024-07")
        #expect(throws: JobError.self) {
            try ReportOptions.settings(try JobArguments.parse(["--to", "2026-12"], options: ReportOptions.all), asOf: asOf)
        }
    }

    @Test func csvFollowsRFC4180() {
        var csv = CSVEncoder()
        csv.append(["a", nil, "b,c", "say \"hi\"", "line\nbreak", "ü…"])
        #expect(String(decoding: csv.bytes, as: UTF8.self) == "a,,\"b,c\",\"say \"\"hi\"\"\",\"line\nbreak\",ü…\r\n")
    }

    @Test func columnsAreFormattedByName() throws {
        let formatter = ReportFormatter(report: "t", columns: ["month", "currency", "mrr_micros", "paying_subscribers", "churn_rate",
                                                               "recover_days", "snapshot_at", "order_id", "provider"], rawIdentifiers: false)
        #expect(formatter.columns.map(\.name) == ["month", "currency", "mrr", "mrr_micros", "paying_subscribers", "churn_rate",
                                                  "recover_days", "snapshot_at", "order_id", "provider"])
        let usd = try formatter.format(["2026-03", "USD", "12345", "7", "0.125", "3.5", "2026-03-31 23:59:59.999+00", "GPA.1234-5678-9012", nil], rowNumber: 1)
        // 12345 micros = 0.012345 USD: half to even at cents gives 0.01; the micros stay exact beside it.
        #expect(usd.map(\.csv) == ["2026-03", "USD", "0.01", "12345", "7", "0.125", "3.5", "2026-03-31T23:59:59.999000Z", "GPA.…9012", nil])
        #expect(usd[2].cell == .money(micros: 12345, places: 2) && usd[4].cell == .integer(7) && usd[5].cell == .percent(0.125, places: 2))
        #expect(usd[9].cell == .empty)
        // JPY has no minor unit; 2.5 yen rounds to 2 (even), 3.5 to 4; BHD has three decimals.
        #expect(try formatter.format(["2026-03", "JPY", "2500000", "1", "0", "0", nil, nil, nil], rowNumber: 2)[2].csv == "2")
        #expect(try formatter.format(["2026-03", "JPY", "3500000", "1", "0", "0", nil, nil, nil], rowNumber: 2)[2].csv == "4")
        #expect(try formatter.format(["2026-03", "BHD", "-1234500", "1", "0", "0", nil, nil, nil], rowNumber: 2)[2].csv == "-1.234")
        #expect(throws: JobError.self) { try formatter.format(["2026-03", "USD", "1.5", "1", "0", "0", nil, nil, nil], rowNumber: 3) }
        #expect(throws: JobError.self) { try formatter.format(["2026-03", "USD", "1", "many", "0", "0", nil, nil, nil], rowNumber: 3) }
        let raw = ReportFormatter(report: "t", columns: ["order_id"], rawIdentifiers: true)
        #expect(try raw.format(["GPA.1234-5678-9012"], rowNumber: 1)[0].csv == "GPA.1234-5678-9012")
    }

    @Test func theReportsOtherColumnsAreFormattedByTheirNamesToo() throws {
        // mrr_movements' exact twelfths and exchange rates, grace_hold_recovery's days, entitlement_leakage's flag.
        let formatter = ReportFormatter(report: "t", columns: ["amount_twelfths", "rate_to_reporting", "previous_rate_to_reporting",
                                                               "median_recovery_days", "is_test", "paying_accounts_count"], rawIdentifiers: false)
        let row = try formatter.format(["-120000000012", "0.006700000000", "1", "3.0000", "t", "4"], rowNumber: 1)
        #expect(row.map(\.csv) == ["-120000000012", "0.006700000000", "1", "3.0000", "true", "4"])
        #expect(row.map(\.cell) == [.integer(-120_000_000_012), .number(0.0067), .number(1), .number(3), .text("true"), .integer(4)])
        #expect(try formatter.format(["1", "1", "1", "1", "f", "1"], rowNumber: 2)[4].csv == "false")
        #expect(throws: JobError.self) { try formatter.format(["1.5", "1", "1", "1", "f", "1"], rowNumber: 3) }
        #expect(throws: JobError.self) { try formatter.format(["1", "0", "1", "1", "f", "1"], rowNumber: 3) }
        #expect(throws: JobError.self) { try formatter.format(["1", "1", "1", "1", "yes", "1"], rowNumber: 3) }
        #expect(ColumnRole.of("refund_rate") == .rate && ColumnRole.of("rate_to_reporting") == .exchangeRate)
    }

    @Test func chartsAddCountsAndOneCurrencysAmountsAndTakeRatiosWhenAsked() throws {
        let table = ReportTable(columns: ["month", "provider", "currency", "plan", "episodes_count", "churn_rate", "new_micros",
                                          "refunded_count", "paid_count"], rows: [
            ["2026-01", "APPLE", "USD", "a", "3", "0.5", "1000000", "1", "10"],
            ["2026-01", "APPLE", "USD", "b", "4", "0.25", "2000000", "2", "10"],
            ["2026-01", "APPLE", "EUR", "a", "5", "0", "4000000", "1", "30"],
            ["2026-02", "GOOGLE", "USD", "a", "1", "1", "500000", "0", "0"],
        ])
        let formatter = ReportFormatter(report: "t", columns: table.columns, rawIdentifiers: false)
        func block(_ chart: ReportChart) throws -> Result<ChartBlock, ChartSkipped> {
            try ChartBlock.make(chart, table: table, formatter: formatter, reportingCurrency: "USD")
        }
        let counts = ReportChart(kind: .column, title: "Funnel", values: ["episodes_count"], valueAxis: "n", combine: .sum)
        guard case .success(let summed) = try block(counts) else { Issue.record("counts add up"); return }
        #expect(summed.categories == ["2026-01", "2026-02"] && summed.values == [[.integer(12)], [.integer(1)]])
        // Amounts add up only within one currency; rates never do.
        let usd = ReportChart(kind: .column, title: "New", values: ["new_micros"], filter: ["currency": "$currency"], valueAxis: "m", combine: .sum)
        guard case .success(let money) = try block(usd) else { Issue.record("USD amounts add up"); return }
        #expect(money.values == [[.money(micros: 3_000_000, places: 2)], [.money(micros: 500_000, places: 2)]])
        let mixed = ReportChart(kind: .column, title: "New", values: ["new_micros"], valueAxis: "m", combine: .sum)
        guard case .failure(let currencies) = try block(mixed) else { Issue.record("USD and EUR must not add up"); return }
        #expect(currencies.reason.contains("USD") && currencies.reason.contains("EUR"))
        let rates = ReportChart(kind: .column, title: "Churn", values: ["churn_rate"], valueAxis: "r", combine: .sum)
        guard case .failure = try block(rates) else { Issue.record("rates never add up"); return }
        // A ratio: numerators added, the denominator once per currency (every plan row of a currency repeats it).
        let ratio = ReportChart(kind: .line, title: "Refund rate", values: ["churn_rate"], seriesColumns: ["provider"], valueAxis: "r",
                                combine: .ratio(numerator: "refunded_count", denominator: "paid_count", once: ["currency"]))
        guard case .success(let rated) = try block(ratio) else { Issue.record("the ratio is drawn"); return }
        #expect(rated.seriesNames == ["APPLE", "GOOGLE"] && rated.values == [[.percent(4.0 / 40, places: 2), .empty], [.empty, .empty]])
        // A label of several columns names each point; the data sheet's header names them all.
        let labelled = ReportChart(kind: .column, title: "Per plan", category: "month", labelColumns: ["currency", "plan"],
                                   values: ["episodes_count"], valueAxis: "n")
        guard case .success(let cohorts) = try block(labelled) else { Issue.record("distinct labels are drawn"); return }
        #expect(cohorts.categories == ["2026-01 USD a", "2026-01 USD b", "2026-01 EUR a", "2026-02 USD a"])
        #expect(labelled.categoryTitle == "month currency plan")
    }

    @Test func chartLabelsShowPricesAsAmountsAndMarkThePartialMonthAndSeriesTakeTheirColumnsColours() throws {
        let cohorts = ReportTable(columns: ["provider", "product_id", "region", "old_price_micros", "new_price_micros", "currency", "mode", "excess_churn_rate"],
                                  rows: [["APPLE", "pro.monthly", "USA", "9990000", "12990000", "USD", "opt_in", "0.1"],
                                         ["GOOGLE", "pro.monthly", "JP", "450000000", "600000000", "JPY", "opt_out", "0.2"]])
        let formatter = ReportFormatter(report: "t", columns: cohorts.columns, rawIdentifiers: false)
        let price = ReportChart(kind: .column, title: "Churn", category: "provider",
                                labelColumns: ["product_id", "region", "old_price_micros", "new_price_micros", "currency", "mode"],
                                values: ["excess_churn_rate"], valueAxis: "churn", categoryAxisTitle: "cohort")
        guard case .success(let block) = try ChartBlock.make(price, table: cohorts, formatter: formatter, reportingCurrency: "USD") else {
            Issue.record("the cohorts are drawn"); return
        }
        #expect(block.categories == ["APPLE pro.monthly USA 9.99 → 12.99 USD opt_in", "GOOGLE pro.monthly JP 450 → 600 JPY opt_out"])
        #expect(price.categoryTitle == "cohort" && block.seriesColors == [nil])

        let months = ReportTable(columns: ["month", "currency", "new_micros", "churn_micros"],
                                 rows: [["2026-10", "USD", "1000000", "500000"], ["2026-11", "USD", "2000000", "0"]])
        let moves = ReportChart(kind: .stackedColumn, title: "Moves", values: ["new_micros", "churn_micros"], negated: ["churn_micros"],
                                valueAxis: "MRR", colors: ["new_micros": 0x1B7837, "churn_micros": 0xB2182B])
        let monthFormatter = ReportFormatter(report: "t", columns: months.columns, rawIdentifiers: false)
        guard case .success(let drawn) = try ChartBlock.make(moves, table: months, formatter: monthFormatter, reportingCurrency: "USD",
                                                             partialMonth: "2026-11") else { Issue.record("the months are drawn"); return }
        #expect(drawn.categories == ["2026-10", "2026-11 (partial)"])
        #expect(drawn.seriesColors == [0x1B7837, 0xB2182B] && moves.drawsLosses)
        guard case .success(let closed) = try ChartBlock.make(moves, table: months, formatter: monthFormatter, reportingCurrency: "USD") else { return }
        #expect(closed.categories == ["2026-10", "2026-11"])
    }

    @Test func chartBlocksCopyCellsAndNeverAddRowsUp() throws {
        let table = ReportTable(columns: ["month", "view", "currency", "provider", "new_micros", "churn_micros"], rows: [
            ["2026-01", "reporting", "USD", "APPLE", "1000000", "500000"],
            ["2026-01", "reporting", "USD", "GOOGLE", "2000000", "0"],
            ["2026-01", "local", "EUR", "APPLE", "9000000", "0"],
            ["2026-02", "reporting", "USD", "APPLE", "3000000", "250000"],
        ])
        let formatter = ReportFormatter(report: "t", columns: table.columns, rawIdentifiers: false)
        let split = ReportChart(kind: .stackedColumn, title: "Moves", values: ["new_micros", "churn_micros"], seriesColumns: ["provider"],
                                filter: ["view": "reporting"], negated: ["churn_micros"], valueAxis: "MRR")
        guard case .success(let block) = try ChartBlock.make(split, table: table, formatter: formatter, reportingCurrency: "USD") else {
            Issue.record("the chart was not drawn"); return
        }
        #expect(block.categories == ["2026-01", "2026-02"])
        #expect(block.seriesNames == ["new APPLE", "churn APPLE", "new GOOGLE", "churn GOOGLE"])
        #expect(block.values[0] == [.money(micros: 1_000_000, places: 2), .money(micros: -500_000, places: 2),
                                    .money(micros: 2_000_000, places: 2), .money(micros: 0, places: 2)])
        #expect(block.values[1] == [.money(micros: 3_000_000, places: 2), .money(micros: -250_000, places: 2), .empty, .empty])

        let unsplit = ReportChart(kind: .line, title: "New", values: ["new_micros"], filter: ["view": "reporting"], valueAxis: "MRR")
        guard case .failure(let skipped) = try ChartBlock.make(unsplit, table: table, formatter: formatter, reportingCurrency: "USD") else {
            Issue.record("two rows of 2026-01 must not be added up"); return
        }
        #expect(skipped.reason.contains("2026-01"))
        let absent = ReportChart(kind: .line, title: "X", values: ["mrr_micros"], valueAxis: "MRR")
        guard case .failure(let missing) = try ChartBlock.make(absent, table: table, formatter: formatter, reportingCurrency: "USD") else {
            Issue.record("a chart over an absent column is skipped"); return
        }
        #expect(missing.reason == "the report has no column mrr_micros")
    }

    @Test func theCatalogueIsWellFormed() {
        let catalogue = ReportCatalogue.standard
        #expect(Set(catalogue.map(\.name)).count == catalogue.count && Set(catalogue.map { $0.sheet.lowercased() }).count == catalogue.count)
        #expect(catalogue.allSatisfy { $0.sheet.count <= 31 && !$0.sheet.contains(where: { "[]:*?/\\".contains($0) }) })
        #expect(!catalogue.contains { $0.name == ReportCatalogue.fxMissing })
        #expect(FileManager.default.fileExists(atPath: ReportingHarness.reportsFolder.appendingPathComponent(ReportCatalogue.fxMissing + ".sql").path))
        #expect(catalogue.allSatisfy { $0.required })
        // Every report is required and in the repository.
        for report in catalogue where report.required {
            #expect(FileManager.default.fileExists(atPath: ReportingHarness.reportsFolder.appendingPathComponent(report.fileName).path), "\(report.name)")
        }
        // And every report file in the repository is in the catalogue, required (a report that lands flips its flag).
        let files = (try? FileManager.default.contentsOfDirectory(atPath: ReportingHarness.reportsFolder.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".sql") && file != ReportCatalogue.fxMissing + ".sql" {
            #expect(catalogue.first { $0.fileName == file }?.required == true, "\(file): list it in ReportCatalogue.standard as required")
        }
    }
}
