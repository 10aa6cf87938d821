import { defineMessages } from '../catalogue.js';

/**
 * What the page script (assets/console.client.js) writes into a page: confirm questions, the bulk approval's button
 * and question, live counts. The layout hands the script these messages of the page's language as JSON; it fills
 * `{placeholders}` the same way. Keys start with `client.`.
 */
export const client = defineMessages(
  {
    'client.confirm.default': 'Are you sure?',
    'client.confirm.approve': 'Approve?',
    'client.copy': 'Click to copy',
    'client.bulk.submit': 'Approve selected ({count})',
    'client.bulk.confirm.one':
      'Approve 1 deposit, {total} in total? Each is approved on its own for exactly what arrived; any that fail are listed.',
    'client.bulk.confirm.many':
      'Approve {count} deposits, {total} in total? Each is approved on its own for exactly what arrived; any that fail are listed.',
    'client.live.delta': '{delta} since loaded',
    'client.live.arrived': 'Arrived since the page loaded; reload for the oldest.',
    'client.live.new.one': '1 new item in the review queue since this page loaded.',
    'client.live.new.many': '{count} new items in the review queue since this page loaded.',
    'client.live.fewer.one': '1 item fewer in the review queue: decided elsewhere since this page loaded.',
    'client.live.fewer.many': '{count} items fewer in the review queue: decided elsewhere since this page loaded.',
    'client.live.waiting.one': 'Review queue: 1 item waiting.',
    'client.live.waiting.many': 'Review queue: {count} items waiting.',
    'client.live.waitingNew.one': 'Review queue: 1 item waiting, {added} new. Press Show to see them.',
    'client.live.waitingNew.many': 'Review queue: {count} items waiting, {added} new. Press Show to see them.',
  },
  {
    'client.confirm.default': 'Emin misiniz?',
    'client.confirm.approve': 'Onaylansın mı?',
    'client.copy': 'Kopyalamak için tıklayın',
    'client.bulk.submit': 'Seçilenleri onayla ({count})',
    'client.bulk.confirm.one':
      '1 yatırım, toplam {total} onaylansın mı? Her biri, gelen tutarın tamamıyla ayrı ayrı onaylanır; onaylanamayanlar listelenir.',
    'client.bulk.confirm.many':
      '{count} yatırım, toplam {total} onaylansın mı? Her biri, gelen tutarın tamamıyla ayrı ayrı onaylanır; onaylanamayanlar listelenir.',
    'client.live.delta': 'açılıştan beri {delta}',
    'client.live.arrived': 'Sayfa açıldıktan sonra geldi; en eskisi için sayfayı yenileyin.',
    'client.live.new.one': 'Bu sayfa açıldığından beri inceleme kuyruğunda 1 yeni kayıt var.',
    'client.live.new.many': 'Bu sayfa açıldığından beri inceleme kuyruğunda {count} yeni kayıt var.',
    'client.live.fewer.one': 'İnceleme kuyruğunda 1 kayıt eksildi: bu sayfa açıldığından beri başka yerde karara bağlandı.',
    'client.live.fewer.many': 'İnceleme kuyruğunda {count} kayıt eksildi: bu sayfa açıldığından beri başka yerde karara bağlandı.',
    'client.live.waiting.one': 'İnceleme kuyruğu: 1 kayıt bekliyor.',
    'client.live.waiting.many': 'İnceleme kuyruğu: {count} kayıt bekliyor.',
    'client.live.waitingNew.one': 'İnceleme kuyruğu: 1 kayıt bekliyor, {added} yeni. Görmek için Göster’e basın.',
    'client.live.waitingNew.many': 'İnceleme kuyruğu: {count} kayıt bekliyor, {added} yeni. Görmek için Göster’e basın.',
  },
);
