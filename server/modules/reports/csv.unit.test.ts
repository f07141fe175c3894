import { describe, expect, it } from 'vitest';
import { csvCell, csvFile, csvNumber } from './csv';

describe('csv', () => {
  it('quotes separators, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('Ayşe Demir')).toBe('Ayşe Demir');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('sagt "hallo"')).toBe('"sagt ""hallo"""');
    expect(csvCell('zwei\nZeilen')).toBe('"zwei\nZeilen"');
    expect(csvCell(null)).toBe('');
  });

  it('puts a quote mark before text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('+49 170')).toBe("'+49 170");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('Mia=Wagner')).toBe('Mia=Wagner');
  });

  it('guards the full-width formula starters and a leading carriage return as the ASCII ones', () => {
    expect(csvCell('\uFF1DHYPERLINK("http://x")')).toBe('"\'\uFF1DHYPERLINK(""http://x"")"');
    expect(csvCell('\uFF0B1')).toBe("'\uFF0B1");
    expect(csvCell('\uFF0D1')).toBe("'\uFF0D1");
    expect(csvCell('\uFF20SUM(A1)')).toBe("'\uFF20SUM(A1)");
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(csvCell('Mia\uFF1DWagner')).toBe('Mia\uFF1DWagner');
  });

  it('writes numbers with a decimal comma, empty for none', () => {
    expect(csvNumber(15.75)).toBe('15,75');
    expect(csvNumber(0)).toBe('0');
    expect(csvNumber(87.5)).toBe('87,5');
    expect(csvNumber(66.66666, 1)).toBe('66,7');
    expect(csvNumber(null)).toBe('');
  });

  it('starts with a BOM and ends every row with CRLF', () => {
    expect(csvFile([['a', 'b'], ['1', '2']])).toBe('\uFEFFa;b\r\n1;2\r\n');
  });
});
