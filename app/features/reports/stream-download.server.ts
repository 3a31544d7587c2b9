import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import { errorFields, logger } from "~/lib/logger.server";
import { csvField } from "~/lib/csv";
import { csvLine, downloadHeaders, type ExportFormat, sheetColumns, sheetName, xlsxValues } from "./spreadsheet.server";
import type { Cell, Column } from "./tables";

const log = logger("export");

/**
 * A download written while its rows are read, a batch at a time (issue 26: all of ten years'
 * leads): the server holds one batch, not the whole list. CSV is the same document toCsv writes;
 * XLSX goes through ExcelJS's streaming writer (rows serialised as they are committed; it zips
 * the sheet at the end, so its peak is the sheet's XML, not ExcelJS's object per cell).
 * A failure half-way ends the response with an error: the browser reports a failed download
 * rather than saving half a file as if it were whole.
 */
export async function streamedDownload(
  sheet: { title: string; columns: Column[] },
  batches: AsyncIterable<Cell[][]>,
  format: ExportFormat,
  baseName: string,
): Promise<Response> {
  const headers = downloadHeaders(format, baseName);
  const body = format === "csv" ? csvStream(sheet.columns, batches) : await xlsxStream(sheet, batches);
  return new Response(body, { headers });
}

function csvStream(columns: Column[], batches: AsyncIterable<Cell[][]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${columns.map((column) => csvField(column.header)).join(";")}\r\n`));
        return;
      }
      try {
        const next = await iterator.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map((row) => csvLine(row, columns)).join("")));
      } catch (error) {
        log.error(errorFields(error), "a streamed download failed");
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

async function xlsxStream(sheet: { title: string; columns: Column[] }, batches: AsyncIterable<Cell[][]>): Promise<ReadableStream<Uint8Array>> {
  const { default: ExcelJS } = await import("exceljs");
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = "CRM";
  const worksheet = workbook.addWorksheet(sheetName(sheet.title), {
    views: [{ state: "frozen", ySplit: 1 }],
  });
  worksheet.columns = sheetColumns(sheet.columns);
  worksheet.getRow(1).font = { bold: true };
  void (async () => {
    try {
      for await (const batch of batches) {
        // The browser went away (cancelled download): stop reading (the loop's end closes the batches).
        if (output.destroyed) return;
        for (const row of batch) worksheet.addRow(xlsxValues(row, sheet.columns)).commit();
        // A slow reader: wait until it takes what is buffered (or leaves) before the next batch.
        if (output.writableNeedDrain) await Promise.race([once(output, "drain"), once(output, "close")]);
      }
      worksheet.commit();
      await workbook.commit();
    } catch (error) {
      if (output.destroyed) return;
      log.error(errorFields(error), "a streamed download failed");
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}
