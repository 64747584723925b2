// The finders of test/docs/examples.sandbox.test.ts find what a reader would copy, and nothing else: a
// finder that missed an example would let a broken one through unseen.
import { findFormulas, functionRows, helpArgumentExamples, hintExamples, isElided, listedForms, paragraphExamples, quoted, rowArgumentExamples } from './findExamples';

const formulas = (text: string) => findFormulas(text).map((f) => f.formula);

describe('findFormulas', () => {
  it('ends a formula where prose, a quote, a backtick or a tag takes over', () => {
    expect(formulas('type =FIN.VERSION() in a cell.')).toEqual(['=FIN.VERSION()']);
    expect(formulas('then =FIN.TOTAL("Revenue","YTD"), and')).toEqual(['=FIN.TOTAL("Revenue","YTD")']);
    expect(formulas(`placeholder='A formula such as =FIN.PNL("Revenue", A1) or =SUM(B2:B5)'`)).toEqual(['=FIN.PNL("Revenue", A1)', '=SUM(B2:B5)']);
    expect(formulas('so `=SUM(B2:B5)-FIN.PNL("Rent", A1)` works')).toEqual(['=SUM(B2:B5)-FIN.PNL("Rent", A1)']);
    expect(formulas('<code>=FIN.VERSION()</code> shows')).toEqual(['=FIN.VERSION()']);
    expect(formulas('<Text>type =B4*2</Text>')).toEqual(['=B4*2']);
  });

  it('keeps strings, quoted sheet names and wrapped lines whole', () => {
    expect(formulas('`=FIN.TOTAL("Operating Expenses > Rent", "a ) b")` ok')).toEqual(['=FIN.TOTAL("Operating Expenses > Rent", "a ) b")']);
    expect(formulas("`='P&L FY2025'!B4*2`")).toEqual(["='P&L FY2025'!B4*2"]);
    expect(formulas('`=IF(A1="", "say ""none""", 1)`')).toEqual(['=IF(A1="", "say ""none""", 1)']);
    expect(formulas('(`=FIN.TOTAL("Revenue",\n  "FY2026")`)')).toEqual(['=FIN.TOTAL("Revenue", "FY2026")']);
  });

  it('finds no formula in code or in a namespace to type', () => {
    expect(formulas('if (a === B(1)) x => F(2); y <= C(3); z != D(4); const q = E(5);')).toEqual([]);
    expect(formulas('Type =FIN. in a cell to see the functions.')).toEqual([]);
    expect(formulas('--env url=https://reports.example.com/')).toEqual([]);
  });

  it('gives the line it starts on', () => {
    expect(findFormulas('one\ntwo =SUM(1,\n2)\n')).toEqual([{ formula: '=SUM(1, 2)', line: 2 }]);
  });
});

describe('argument examples', () => {
  it("takes each quoted example of a parameter's help", () => {
    const json = {
      functions: [
        {
          id: 'TOTAL',
          name: 'TOTAL',
          parameters: [
            { name: 'category', description: 'Category name, path ("Operating Expenses > Rent") or id (cat_...).' },
            { name: 'start', description: 'A month ("2026-07") or "YTD".' },
            { name: 'merchant' },
          ],
        },
      ],
    };
    expect(helpArgumentExamples(json).map((e) => `${e.fn}.${e.param} ${e.example}`)).toEqual([
      'TOTAL.category Operating Expenses > Rent',
      'TOTAL.start 2026-07',
      'TOTAL.start YTD',
    ]);
  });

  it("gives a table row's quoted examples to the parameter named last before them, in each function of the row", () => {
    const markdown = [
      '| Function | Answers |',
      '|---|---|',
      '| `FIN.PNL(category, start, [end])` | One line: a category, `"Net Income"` or `"Operating Income"`. |',
      '| `FIN.A(start, [scale])`, `FIN.B(date, [scale])` | Spilled, through `render`. Scale is `"units"` or `"thousands"`. |',
      '| `FIN.C(line)` | Starts with `"Orphan"`. |',
    ].join('\n');
    const rows = functionRows(markdown);
    expect(rows.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(rows.flatMap((r) => rowArgumentExamples('doc.md', r)).map((e) => `${e.where} ${e.fn}.${e.param} ${e.example}`)).toEqual([
      'doc.md:3 PNL.category Net Income',
      'doc.md:3 PNL.category Operating Income',
      'doc.md:4 A.scale units',
      'doc.md:4 B.scale units',
      'doc.md:4 A.scale thousands',
      'doc.md:4 B.scale thousands',
      'doc.md:5 C.null Orphan',
    ]);
  });

  it("takes the code spans of a paragraph, wrapped or not, but not an elided id", () => {
    const markdown = 'Intro `x`.\n\nCategories are given by a path (`Operating Expenses > General &\nAdministrative > Rent`) or by id (`cat_...`).\n\nDates are `2026-07`.';
    expect(paragraphExamples(markdown, 'Categories are given by')).toEqual({ line: 3, examples: ['Operating Expenses > General & Administrative > Rent'] });
    expect(paragraphExamples(markdown, 'Dates are')).toEqual({ line: 6, examples: ['2026-07'] });
    expect(paragraphExamples(markdown, 'Merchants are')).toBeNull();
    expect(isElided('=FIN.PNL(…, A1)')).toBe(true);
  });

  it("takes a message's quoted examples, and the forms it lists", () => {
    expect(quoted('Missing category: give a name (e.g. "Rent"), a path ("Operating Expenses > Rent") or an id (cat_...)')).toEqual(['Rent', 'Operating Expenses > Rent']);
    expect(listedForms('Bad date "soon": use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, YTD or TTM')).toEqual([
      '2026-07-31',
      '2026-07',
      '2026-Q3',
      'FY2026',
      'YTD',
      'TTM',
    ]);
  });

  it("takes a field hint's examples: what is in parentheses, and the words in capitals", () => {
    const tsx = `<Field\n  label="Formula period"\n  hint={periodHint ?? 'A month (2026-07), quarter (2026-Q3), year (FY2026), YTD, TTM or a date.'}\n>`;
    expect(hintExamples(tsx, 'Formula period')).toEqual({ line: 2, examples: ['2026-07', '2026-Q3', 'FY2026', 'YTD', 'TTM'] });
    expect(hintExamples(tsx, 'Other')).toBeNull();
  });
});
