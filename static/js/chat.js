// The room's chat: names and messages are text, never HTML.  Counts the messages that
// arrive while the chat is out of sight (the phone's chat button shows them).

import { h, clear } from './dom.js';
import { t, dateTime } from './i18n.js';

export class ChatBox {
  constructor(onSend, { onUnread = () => {} } = {}) {
    this.onUnread = onUnread;
    this.unread = 0;
    this.onScreen = true;
    this.list = h('ol', { class: 'chat-list' });  // read out by the table's announcer (announce.js), even while out of sight
    this.seen = new Set();
    this.input = h('input', { type: 'text', name: 'chat', maxlength: 500, autocomplete: 'off' });
    this.sendBtn = h('button', { type: 'submit', class: 'btn' });
    this.title = h('h2');
    const form = h('form', { class: 'chat-form', 'data-role': 'chat-form' }, this.input, this.sendBtn);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (text && onSend(text)) this.input.value = '';
    });
    this.el = h('section', { class: 'panel chat', 'data-role': 'chat' }, this.title, this.list, form);
    this.relabel();
    if ('IntersectionObserver' in window) {
      new IntersectionObserver((entries) => {
        this.onScreen = entries.some((e) => e.isIntersecting);
        if (this.onScreen) this.markRead();
      }).observe(this.list);
    }
  }

  relabel() {
    this.title.textContent = t('chat');
    this.input.placeholder = t('say');
    this.sendBtn.textContent = t('send');
  }

  markRead() {
    if (!this.unread) return;
    this.unread = 0;
    this.onUnread(0);
  }

  add(msg, { live = true } = {}) {
    if (msg.id !== undefined && this.seen.has(msg.id)) return;
    if (msg.id !== undefined) this.seen.add(msg.id);
    const time = msg.time ? dateTime(msg.time, { timeStyle: 'short' }) : '';
    this.list.append(h('li', { class: 'chat-msg' },
      h('span', { class: 'time muted', text: time }), ' ',
      h('b', { class: 'chat-name', text: msg.name }), ': ',
      h('span', { class: 'chat-text', text: msg.text })));
    while (this.list.children.length > 200) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
    if (live && !this.onScreen) {
      this.unread += 1;
      this.onUnread(this.unread);
    }
  }

  reset(messages) {
    clear(this.list);
    this.seen.clear();
    for (const m of messages) this.add(m, { live: false });
  }
}
