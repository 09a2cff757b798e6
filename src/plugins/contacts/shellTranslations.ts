/** The contacts plugin's strings the shell shows before any of its pages opens (menu label, resource names). */
export const shellTranslations = {
  en: { contacts: { menu: 'Contacts' }, resources: { contacts: { name: 'Contact |||| Contacts' }, 'contact-attributes': { name: 'Attribute |||| Attributes' } } },
  fr: { contacts: { menu: 'Contacts' }, resources: { contacts: { name: 'Contact |||| Contacts' }, 'contact-attributes': { name: 'Attribut |||| Attributs' } } },
};
