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
