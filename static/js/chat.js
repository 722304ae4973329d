// The room's chat: names and messages are text, never HTML.

import { h, clear } from './dom.js';
import { t } from './i18n.js';

export class ChatBox {
  constructor(onSend) {
    this.list = h('ol', { class: 'chat-list', 'aria-live': 'polite' });
    this.seen = new Set();
    this.input = h('input', { type: 'text', name: 'chat', maxlength: 500, placeholder: t('say'), autocomplete: 'off' });
    const form = h('form', { class: 'chat-form', 'data-role': 'chat-form' }, this.input,
      h('button', { type: 'submit', class: 'btn', text: t('send') }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (text && onSend(text)) this.input.value = '';
    });
    this.el = h('section', { class: 'panel chat' }, h('h2', { text: t('chat') }), this.list, form);
  }

  add(msg) {
    if (msg.id !== undefined && this.seen.has(msg.id)) return;
    if (msg.id !== undefined) this.seen.add(msg.id);
    const time = msg.time ? new Date(msg.time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '';
    this.list.append(h('li', { class: 'chat-msg' },
      h('span', { class: 'time muted', text: time }), ' ',
      h('b', { class: 'chat-name', text: msg.name }), ': ',
      h('span', { class: 'chat-text', text: msg.text })));
    while (this.list.children.length > 200) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }

  reset(messages) {
    clear(this.list);
    this.seen.clear();
    for (const m of messages) this.add(m);
  }
}
