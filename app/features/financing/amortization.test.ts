import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { monthlyRateFromYearly, pricePayment, priceSchedule, roundCents, sacSchedule, type Schedule } from "./amortization";

/** [instalment, interest, amortisation, balance] of each row, in centavos. */
const rowsOf = (schedule: Schedule) => schedule.rows.map((row) => [row.instalment, row.interest, row.amortization, row.balance]);

/** At most one centavo a month of rounding, compounded: ((1 + i)^n − 1) / i centavos, plus one. */
const driftBound = (monthlyRate: number, months: number) => (monthlyRate === 0 ? months : (Math.pow(1 + monthlyRate, months) - 1) / monthlyRate) + 1;

function expectConsistent(schedule: Schedule, months: number) {
  const { rows, principal } = schedule;
  expect(rows).toHaveLength(months);
  expect(rows.map((row) => row.number)).toEqual(Array.from({ length: months }, (_, index) => index + 1));
  let balance = principal;
  let amortized = 0;
  let paid = 0;
  let interest = 0;
  for (const row of rows) {
    for (const value of [row.instalment, row.interest, row.amortization, row.balance]) {
      expect(Number.isSafeInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(row.instalment).toBe(row.interest + row.amortization);
    balance -= row.amortization;
    expect(row.balance).toBe(balance);
    amortized += row.amortization;
    paid += row.instalment;
    interest += row.interest;
  }
  expect(amortized).toBe(principal);
  expect(rows.at(-1)!.balance).toBe(0);
  expect(schedule.totalPaid).toBe(paid);
  expect(schedule.totalInterest).toBe(interest);
  expect(schedule.totalPaid).toBe(principal + schedule.totalInterest);
  expect(schedule.firstInstalment).toBe(rows[0].instalment);
  expect(schedule.lastInstalment).toBe(rows.at(-1)!.instalment);
}

describe("rounding and rates", () => {
  it("rounds half a centavo up despite floating-point noise", () => {
    // R$ 15,00 at 0,9 %: 13,5 centavos, which floating point computes as 13,499999999999998.
    expect(1500 * 0.009).toBeLessThan(13.5);
    expect(roundCents(1500 * 0.009)).toBe(14);
    expect(roundCents(1499 * 0.009)).toBe(13);
    expect(roundCents(78452.9 * 1)).toBe(78453);
    expect(roundCents(78452.4999)).toBe(78452);
  });

  it("converts an effective yearly rate to the equivalent monthly rate", () => {
    // (1 + 12.6825 %)^(1/12) = 1.01: 1 % a month compounds to 12.68 % a year.
    expect(monthlyRateFromYearly(0.12682503013196977)).toBeCloseTo(0.01, 12);
    expect(monthlyRateFromYearly(0.115)).toBeCloseTo(0.009112468, 9);
    expect(monthlyRateFromYearly(0)).toBe(0);
    // Twelve compounded months give back the yearly rate.
    expect(Math.pow(1 + monthlyRateFromYearly(0.3), 12) - 1).toBeCloseTo(0.3, 12);
  });
});

describe("Price (French system) against worked examples", () => {
  it("R$ 100.000,00 at 1 % a month in 12 instalments: PMT R$ 8.884,88", () => {
    // The standard textbook case: PMT = 100000 · 0.01 / (1 − 1.01^−12) = 8 884,8788… → 8 884,88.
    const schedule = priceSchedule(10_000_000, 0.01, 12);
    expect(pricePayment(10_000_000, 0.01, 12)).toBe(888_488);
    expect(schedule.firstInstalment).toBe(888_488);
    expect(schedule.rows.slice(0, 11).every((row) => row.instalment === 888_488)).toBe(true);
    // Row 1: interest 1 % of 100 000,00 = 1 000,00; amortisation 7 884,88; balance 92 115,12.
    expect(rowsOf(schedule)[0]).toEqual([888_488, 100_000, 788_488, 9_211_512]);
    // The rounded-up PMT overpays a fraction of a centavo a month: the last row settles the
    // balance (8 796,88 + 1 % interest 87,97) and comes to 8 884,85.
    expect(rowsOf(schedule)[11]).toEqual([888_485, 8_797, 879_688, 0]);
    expect(schedule.totalInterest).toBe(661_853);
    expectConsistent(schedule, 12);
  });

  it("R$ 70.000,00 at 2 % a month in 5 instalments, row by row", () => {
    // Worked solution "Tabela Price e SAC" (Passei Direto, arquivo 92812089): PMT 14 851,09,
    // rows (balance, amortisation, interest) 56 548,91 / 13 451,09 / 1 400,00; 42 828,80 /
    // 13 720,11 / 1 130,98; 28 834,29 / 13 994,51 / 856,58; 14 559,89 / 14 274,40 / 576,69;
    // 0,00 / 14 559,89 / 291,20. Its total of interest (4 255,44) adds up the unrounded
    // interest; the rounded column it prints adds up to 4 255,45, which is what a borrower pays.
    const schedule = priceSchedule(7_000_000, 0.02, 5);
    expect(rowsOf(schedule)).toEqual([
      [1_485_109, 140_000, 1_345_109, 5_654_891],
      [1_485_109, 113_098, 1_372_011, 4_282_880],
      [1_485_109, 85_658, 1_399_451, 2_883_429],
      [1_485_109, 57_669, 1_427_440, 1_455_989],
      [1_485_109, 29_120, 1_455_989, 0],
    ]);
    expect(schedule.totalInterest).toBe(425_545);
    expect(schedule.totalPaid).toBe(7_425_545);
    expectConsistent(schedule, 5);
  });

  it("R$ 10.000,00 at 10 % a month in 4 instalments", () => {
    // Classic example (e.g. the "Financiamento Price, 10 % am, 4 meses" table on Scribd,
    // document 622149570): PMT 3 154,71; interest 1 000,00, 784,53, 547,51, 286,79; balances
    // 7 845,29 and 5 475,11 after the first two; total interest 2 618,83, total paid 12 618,83.
    const schedule = priceSchedule(1_000_000, 0.1, 4);
    expect(schedule.firstInstalment).toBe(315_471);
    expect(schedule.rows.map((row) => row.interest)).toEqual([100_000, 78_453, 54_751, 28_679]);
    expect(schedule.rows.slice(0, 2).map((row) => row.balance)).toEqual([784_529, 547_511]);
    expect(schedule.totalInterest).toBe(261_883);
    expect(schedule.totalPaid).toBe(1_261_883);
    expectConsistent(schedule, 4);
  });
});

describe("SAC against worked examples", () => {
  it("R$ 120.000,00 at 1 % a month in 12 instalments", () => {
    // Textbook case: amortisation 120 000 / 12 = 10 000,00; first instalment 10 000 + 1 200 =
    // 11 200,00; last 10 000 + 100 = 10 100,00; interest 1 % · 10 000 · (12 + 11 + … + 1) = 7 800,00.
    const schedule = sacSchedule(12_000_000, 0.01, 12);
    expect(schedule.rows.every((row) => row.amortization === 1_000_000)).toBe(true);
    expect(schedule.firstInstalment).toBe(1_120_000);
    expect(schedule.lastInstalment).toBe(1_010_000);
    expect(schedule.totalInterest).toBe(780_000);
    expect(schedule.totalPaid).toBe(12_780_000);
    expect(schedule.rows.map((row) => row.instalment)).toEqual(Array.from({ length: 12 }, (_, index) => 1_120_000 - index * 10_000));
    expectConsistent(schedule, 12);
  });

  it("R$ 10.000,00 at 2 % a month in 10 instalments, row by row", () => {
    // "Sistema SAC e Sistema PRICE" (Scribd, document 397006471): amortisation 1 000,00;
    // interest 200,00, 180,00 … 20,00; instalments 1 200,00 … 1 020,00; balance 9 000,00 … 0.
    const schedule = sacSchedule(1_000_000, 0.02, 10);
    expect(rowsOf(schedule)).toEqual(
      Array.from({ length: 10 }, (_, index) => [120_000 - index * 2_000, 20_000 - index * 2_000, 100_000, 900_000 - index * 100_000]),
    );
    expect(schedule.totalInterest).toBe(110_000);
    expectConsistent(schedule, 10);
  });

  it("spreads centavos that do not divide evenly, within one centavo of P/n", () => {
    // R$ 1.000,00 in 3: 333,33 + 333,34 + 333,33 (balances 666,67 and 333,33 are the exact
    // balances rounded to the centavo).
    const schedule = sacSchedule(100_000, 0.01, 3);
    expect(schedule.rows.map((row) => row.amortization)).toEqual([33_333, 33_334, 33_333]);
    expect(schedule.rows.map((row) => row.balance)).toEqual([66_667, 33_333, 0]);
    expect(schedule.rows.map((row) => row.interest)).toEqual([1_000, 667, 333]);
    expectConsistent(schedule, 3);
  });
});

describe("property-like loans", () => {
  const rate = monthlyRateFromYearly(0.115);

  it("R$ 624.000,00 over 30 years at 11,5 % a year, both systems", () => {
    const sac = sacSchedule(62_400_000, rate, 360);
    const price = priceSchedule(62_400_000, rate, 360);
    expectConsistent(sac, 360);
    expectConsistent(price, 360);
    // SAC: 624 000 / 360 = 1 733,33…: the first instalment is that plus one month's interest.
    expect(sac.rows[0].amortization).toBe(173_333);
    expect(sac.firstInstalment).toBe(173_333 + roundCents(62_400_000 * rate));
    expect(sac.lastInstalment).toBeLessThan(sac.firstInstalment);
    // SAC starts higher and pays less interest; Price's instalment is constant.
    expect(sac.firstInstalment).toBeGreaterThan(price.firstInstalment);
    expect(sac.totalInterest).toBeLessThan(price.totalInterest);
    expect(price.rows.slice(0, -1).every((row) => row.instalment === price.firstInstalment)).toBe(true);
    // The rounded PMT and the rounded interest of each row leave at most a centavo a month of
    // drift, compounding at the loan's rate: the last row settles it.
    expect(Math.abs(price.lastInstalment - price.firstInstalment)).toBeLessThanOrEqual(driftBound(rate, 360));
    expect(price.lastInstalment).not.toBe(price.firstInstalment); // (here it does differ: R$ 5,93)
  });

  it("35 years (420 months), the longest term, and the largest price", () => {
    for (const schedule of [sacSchedule(10_000_000_000, monthlyRateFromYearly(0.3), 420), priceSchedule(10_000_000_000, monthlyRateFromYearly(0.3), 420)]) {
      expectConsistent(schedule, 420);
    }
  });

  it("0 % a year: no interest and no division by zero", () => {
    const sac = sacSchedule(50_000_000, 0, 360);
    const price = priceSchedule(50_000_000, 0, 360);
    for (const schedule of [sac, price]) {
      expectConsistent(schedule, 360);
      expect(schedule.totalInterest).toBe(0);
      expect(schedule.totalPaid).toBe(50_000_000);
    }
    expect(pricePayment(50_000_000, 0, 360)).toBe(138_889);
  });

  it("one month, one centavo, and a principal smaller than the number of months", () => {
    expect(rowsOf(sacSchedule(100_000, 0.01, 1))).toEqual([[101_000, 1_000, 100_000, 0]]);
    expect(rowsOf(priceSchedule(100_000, 0.01, 1))).toEqual([[101_000, 1_000, 100_000, 0]]);
    expectConsistent(sacSchedule(1, 0.02, 420), 420);
    expectConsistent(priceSchedule(1, 0.02, 420), 420);
    expectConsistent(priceSchedule(300, 0.0001, 420), 420);
    expectConsistent(priceSchedule(300, 0, 420), 420);
  });

  it("holds its invariants for any loan within the simulator's limits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.integer({ min: 1, max: 420 }),
        (principal, yearly, months) => {
          const monthly = monthlyRateFromYearly(yearly);
          expectConsistent(sacSchedule(principal, monthly, months), months);
          const price = priceSchedule(principal, monthly, months);
          expectConsistent(price, months);
          if (monthly > 0) expect(Math.abs(price.lastInstalment - pricePayment(principal, monthly, months))).toBeLessThanOrEqual(driftBound(monthly, months));
        },
      ),
      { numRuns: 100 },
    );
    // Up to 420 rows of checks a run: seconds on a busy 2-core machine, beyond vitest's 5 s default.
  }, 30_000);

  it("keeps the Price instalment exact at a tiny rate (found by the property above)", () => {
    // One month: the instalment is P·(1 + i), here 1.846.806.280,5000000025 centavos → …281.
    const monthly = monthlyRateFromYearly(1.6244258049802344e-8);
    expect(pricePayment(1846806278, monthly, 1)).toBe(1846806281);
  });

  it("refuses inputs the simulator never sends", () => {
    expect(() => sacSchedule(0, 0.01, 12)).toThrow(RangeError);
    expect(() => priceSchedule(100, -0.01, 12)).toThrow(RangeError);
    expect(() => priceSchedule(100, 0.01, 0)).toThrow(RangeError);
    expect(() => sacSchedule(100.5, 0.01, 12)).toThrow(RangeError);
    expect(() => priceSchedule(100, Number.NaN, 12)).toThrow(RangeError);
  });
});
