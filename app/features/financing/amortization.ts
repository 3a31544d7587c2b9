/**
 * Amortisation schedules of a property loan: SAC (Sistema de Amortização Constante) and Price
 * (Tabela Price, the French system with a constant instalment). Pure functions, no I/O.
 *
 * Money is in integer centavos throughout, and the rounding is explicit:
 * - Each row's interest is the balance before the row times the monthly rate, rounded to the
 *   centavo, half up ("arredondamento comercial": 0,5 centavo goes up).
 * - SAC: the amortisation of row k is round(P·k/n) − round(P·(k−1)/n). When P/n is a whole
 *   number of centavos this is exactly P/n every month; otherwise rows differ by at most one
 *   centavo, every balance is the exact balance P·(n−k)/n rounded to the centavo, and the
 *   amortisations add up to P exactly, so the last row closes the balance to 0.
 * - Price: the instalment is the textbook PMT = P·i / (1 − (1+i)^−n) rounded to the centavo;
 *   each row amortises instalment − interest. The last row amortises whatever balance is left
 *   (a few centavos more or less than the others, from the rounded instalment), so the balance
 *   ends at 0 exactly. At 0 % a year Price and SAC are the same schedule (no interest, equal
 *   amortisations).
 * - Totals are sums of the rows as shown: total paid = principal + total interest, exactly.
 */

export type AmortizationSystem = "sac" | "price";

/** One month of the schedule; every amount in centavos. */
export type ScheduleRow = {
  number: number;
  instalment: number;
  interest: number;
  amortization: number;
  /** The balance after this instalment. */
  balance: number;
};

export type Schedule = {
  system: AmortizationSystem;
  principal: number;
  rows: ScheduleRow[];
  firstInstalment: number;
  lastInstalment: number;
  totalPaid: number;
  totalInterest: number;
};

/**
 * Rounds to the nearest whole centavo, half up. The products of balances and rates carry
 * floating-point noise (1050 × 0,01 is 10,499999999999998): 15 significant digits first drop
 * that noise, so a true half centavo rounds up as it does on paper. Amounts here stay below
 * 10^11 centavos, where 15 digits still keep four decimals.
 */
export function roundCents(value: number): number {
  return Math.round(Number(value.toPrecision(15)));
}

/**
 * The monthly rate equivalent to an effective yearly rate (compound: (1 + a)^(1/12) − 1), as
 * Brazilian banks state their rates ("taxa efetiva anual"). Both as fractions: 0.115 → 0.00911…
 */
export function monthlyRateFromYearly(yearlyRate: number): number {
  if (yearlyRate === 0) return 0;
  return Math.pow(1 + yearlyRate, 1 / 12) - 1;
}

function assertInputs(principal: number, monthlyRate: number, months: number) {
  if (!Number.isSafeInteger(principal) || principal <= 0) throw new RangeError("principal must be a positive whole number of centavos");
  if (!Number.isFinite(monthlyRate) || monthlyRate < 0) throw new RangeError("monthlyRate must be a finite number ≥ 0");
  if (!Number.isInteger(months) || months < 1) throw new RangeError("months must be a whole number ≥ 1");
}

function summarize(system: AmortizationSystem, principal: number, rows: ScheduleRow[]): Schedule {
  let totalPaid = 0;
  let totalInterest = 0;
  for (const row of rows) {
    totalPaid += row.instalment;
    totalInterest += row.interest;
  }
  return {
    system,
    principal,
    rows,
    firstInstalment: rows[0].instalment,
    lastInstalment: rows[rows.length - 1].instalment,
    totalPaid,
    totalInterest,
  };
}

/** SAC: constant amortisation, interest on the falling balance, so falling instalments. */
export function sacSchedule(principal: number, monthlyRate: number, months: number): Schedule {
  assertInputs(principal, monthlyRate, months);
  const rows: ScheduleRow[] = [];
  let balance = principal;
  let amortizedSoFar = 0;
  for (let number = 1; number <= months; number++) {
    const interest = roundCents(balance * monthlyRate);
    const amortizedAfter = number === months ? principal : Math.round((principal * number) / months);
    const amortization = amortizedAfter - amortizedSoFar;
    amortizedSoFar = amortizedAfter;
    balance -= amortization;
    rows.push({ number, instalment: amortization + interest, interest, amortization, balance });
  }
  return summarize("sac", principal, rows);
}

/** The constant instalment of the Price table, in centavos (rounded half up). */
export function pricePayment(principal: number, monthlyRate: number, months: number): number {
  assertInputs(principal, monthlyRate, months);
  if (monthlyRate === 0) return roundCents(principal / months);
  // 1 − (1+i)^−n written with expm1/log1p: with a tiny rate the plain form loses most of its
  // digits to cancellation (R$ 18 million at 0,0000001 % a month came out 3 centavos short).
  return roundCents((principal * monthlyRate) / -Math.expm1(-months * Math.log1p(monthlyRate)));
}

/** Price (French system): constant instalment, growing amortisation. */
export function priceSchedule(principal: number, monthlyRate: number, months: number): Schedule {
  assertInputs(principal, monthlyRate, months);
  // Without interest the constant instalment is a constant amortisation: SAC's rows spread the
  // centavos that do not divide evenly, where a rounded P/n could overshoot the balance.
  if (monthlyRate === 0) return { ...sacSchedule(principal, 0, months), system: "price" };
  const payment = pricePayment(principal, monthlyRate, months);
  const rows: ScheduleRow[] = [];
  let balance = principal;
  for (let number = 1; number <= months; number++) {
    const interest = roundCents(balance * monthlyRate);
    // The last row settles the balance; before it, a tiny loan's rounded instalment could still
    // amortise more than is owed: never below zero.
    const amortization = number === months ? balance : Math.min(Math.max(payment - interest, 0), balance);
    balance -= amortization;
    rows.push({ number, instalment: amortization + interest, interest, amortization, balance });
  }
  return summarize("price", principal, rows);
}
