export default { id: 'not-a-connector', template: 'spreadsheet' };
