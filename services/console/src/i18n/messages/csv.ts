import { defineMessages } from '../catalogue.js';

/** The csv area of the console's messages: keys start with `csv.`. */
export const csv = defineMessages(
  {
    'csv.export': 'Export CSV',
    'csv.exportExcelTr': 'Excel (Türkiye)',
    'csv.hint':
      'every row these filters select, not only this page; Excel (Türkiye) opens in Excel set to Turkish: semicolons, 1500,00, Türkiye time',
  },
  {
    'csv.export': 'CSV olarak indir',
    'csv.exportExcelTr': 'Excel (Türkiye)',
    'csv.hint':
      'bu süzgeçlerin seçtiği bütün satırlar, yalnız bu sayfa değil; Excel (Türkiye) Türkçe Excel’de açılır: noktalı virgül, 1500,00, Türkiye saati',
  },
);
